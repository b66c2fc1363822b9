import 'server-only';

/**
 * The kinds of refusal a service may raise. A service names what went wrong, never how HTTP says it: the API maps
 * each kind to one status and envelope code in one table (server/api/errors.ts `REFUSALS`), for the public API and
 * the operator console alike.
 * - `invalid`: the input breaks a rule (a field, a password policy); `detail.field` names the field.
 * - `unauthenticated`: the credentials do not match.
 * - `forbidden`: allowed to nobody in the caller's position (an opted-out number, a used-up quota).
 * - `notFound`: no such record, or not the caller's (the same answer, so ids cannot be probed).
 * - `conflict`: the record's state does not allow it now.
 * - `gone`: a single-use link already used or expired.
 * - `limited`: a rate limit or a cap.
 * - `unavailable`: a provider the answer needs does not answer.
 */
export type RefusalKind =
  'invalid' | 'unauthenticated' | 'forbidden' | 'notFound' | 'conflict' | 'gone' | 'limited' | 'unavailable';

/**
 * A refusal raised by a service (docs/rules.md#errors): its `kind` (RefusalKind), `messageKey` in messages/ (e.g.
 * `Api.notFound`, translated into the request's language where it is answered), `params` for its placeholders, and
 * `detail`, machine-readable facts added to the envelope (e.g. `field`, `reason`).
 */
export class DomainError extends Error {
  constructor(
    readonly kind: RefusalKind,
    readonly messageKey: string,
    readonly params: Record<string, string | number> = {},
    readonly detail: Record<string, unknown> = {},
  ) {
    super(messageKey);
    this.name = 'DomainError';
  }
}

/** Not found, or not the caller's: one answer for both, so ids of others cannot be probed (docs/rules.md#security). */
export const notFound = () => new DomainError('notFound', 'Api.notFound');
