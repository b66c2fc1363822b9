import 'server-only';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { ApiError, DomainError, ErrorCode, type RefusalKind } from '../errors';

export { ApiError, DomainError, ErrorCode, notFound } from '../errors';

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
