/**
 * How the API answers and fails, for every transport of lib/api (the axios client, lib/api/client.ts, and the `fetch`
 * calls of lib/api/fetch.ts): the envelope of docs/rules.md#api, its unwrapping and the one error type the pages read.
 */

/** The message of a call that got no answer (the server's catalogue has it localized as `Api.network`). */
export const NETWORK_ERROR = 'Network error, please try again later';
/** Code of an invalid or expired session (server ErrorCode). */
export const SESSION_INVALID = 20012;
/** Code of a session opened with a temporary password, which may only change the password (server ErrorCode). */
export const MUST_CHANGE_PASSWORD = 40301;
/** How long a call may take before it counts as unanswered, in ms. */
export const TIMEOUT_MS = 30_000;

/** Rejection of an API call: `message` is user-facing, `code`/`status` as answered (0 without a response). */
export class ApiClientError extends Error {
  constructor(
    message: string,
    readonly code: number,
    readonly status: number,
    readonly detail: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'ApiClientError';
  }
}

/** The envelope as it arrives: `success` 1 with `obj`, `page` or `result`; otherwise `msg`, `code` and details. */
export type RawEnvelope = {
  success: number;
  msg?: string;
  code?: number;
  obj?: unknown;
  page?: unknown;
  result?: unknown;
};

/** The success envelope, for calls made with `whole`. */
export type Envelope<T> = { success: 1; msg: string; obj: T };

/**
 * The payload of an answered call: `obj`, `page` or `result` of a success envelope (`whole`: the envelope itself).
 * Throws `ApiClientError` with the envelope's `msg` (else `fallback`, the localized network message) and `code` when
 * `success` is not 1, even on HTTP 200.
 */
export function unwrap<T>(body: RawEnvelope | null | undefined, whole: boolean, fallback: string): T {
  if (body?.success !== 1) throw new ApiClientError(body?.msg || fallback, body?.code ?? 0, 200);
  if (whole) return body as T;
  return (body.obj ?? body.page ?? body.result) as T;
}

/**
 * The error of a call answered with HTTP `status` ≥ 400: the envelope's localized `msg` (else `fallback`: an answer
 * that is not the API's, such as a proxy's 502 page, reads as the localized network message), its `code` (else the
 * status) and the rest of the envelope as `detail` (e.g. `kind`, `retryAfter`).
 */
export function answeredError(status: number, data: unknown, fallback: string): ApiClientError {
  const { success: _s, msg, code, ...detail } = (data && typeof data === 'object' ? data : {}) as RawEnvelope;
  return new ApiClientError(msg || fallback, code ?? status, status, detail);
}
