import 'server-only';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { DomainError, RefusalKind } from '../errors';

export { DomainError, notFound } from '../errors';

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
 * The API's error type, for what only HTTP knows (a session, a body, a header); services raise DomainError instead.
 * `messageKey` is a key in messages/ (e.g. `Api.notFound`), translated into the request's language by `onError`;
 * `params` fill its placeholders; `detail` adds machine-readable facts (e.g. the phone error kind) to the envelope.
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

/**
 * The one place a service's refusal becomes HTTP (docs/rules.md#errors): each RefusalKind's status and envelope code,
 * for the public API and the operator console alike.
 */
export const REFUSALS: Record<RefusalKind, { status: ContentfulStatusCode; code: number }> = {
  invalid: { status: 422, code: ErrorCode.validation },
  unauthenticated: { status: 401, code: ErrorCode.loginFailed },
  forbidden: { status: 403, code: ErrorCode.forbidden },
  notFound: { status: 404, code: ErrorCode.notFound },
  conflict: { status: 409, code: ErrorCode.conflict },
  gone: { status: 410, code: ErrorCode.gone },
  limited: { status: 429, code: ErrorCode.rateLimited },
  unavailable: { status: 503, code: ErrorCode.unavailable },
};

/** The API's answer to a service's refusal: REFUSALS' status and code, with its message key, params and detail. */
export function apiErrorOf(error: DomainError): ApiError {
  const { status, code } = REFUSALS[error.kind];
  return new ApiError(status, code, error.messageKey, error.params, error.detail);
}
