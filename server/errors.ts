import 'server-only';
import type { ContentfulStatusCode } from 'hono/utils/http-status';

/** Error codes of the envelope (docs/rules.md#api); 20012 = session invalid or expired (docs/rules.md#errors). */
export const ErrorCode = {
  badRequest: 40000,
  validation: 42200,
  notFound: 40400,
  forbidden: 40300,
  mustChangePassword: 40301,
  /** Answered before the API by scripts/request-guard.mjs (TRACE, CONNECT and other methods the API has no use for). */
  methodNotAllowed: 40500,
  tooLarge: 41300,
  unsupportedMedia: 41500,
  notLoggedIn: 40100,
  loginFailed: 40101,
  sessionInvalid: 20012,
  paymentDeclined: 40201,
  conflict: 40900,
  gone: 41000,
  rateLimited: 42900,
  internal: 50000,
  unavailable: 50300,
} as const;

/**
 * The one error type of the API. `messageKey` is a key in messages/ (e.g. `Api.notFound`), translated into the
 * request's language by `onError`; `params` fill its placeholders; `detail` adds machine-readable facts (e.g. the
 * phone error kind) to the envelope.
 */
export class ApiError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: number,
    readonly messageKey: string,
    readonly params: Record<string, string | number> = {},
    readonly detail: Record<string, unknown> = {},
  ) {
    super(messageKey);
    this.name = 'ApiError';
  }
}

/** 404 in the envelope; also what a foreign record answers, so ids of others cannot be probed (docs/rules.md#security). */
export const notFound = () => new ApiError(404, ErrorCode.notFound, 'Api.notFound');
