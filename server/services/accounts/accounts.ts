import 'server-only';
import { desc, eq, sql } from 'drizzle-orm';
import { localeUrl } from '../../../i18n/routing';
import type { Db, Tx } from '../../db/client';
import { orders, sessions, users } from '../../db/schema';
import { env } from '../../env';
import { DomainError } from '../../errors';
import { queueEmail } from '../messaging';
import { clientKey } from '../client-ip';
import { hashPassword, newPasswordProblem, verifyPassword } from './passwords';
import { assertNotLimited, consume, resetLimit } from '../rate-limit';
import { createSession, revokeOtherSessions, type SessionUser } from './sessions';
import { sha256 } from '../tokens';

// An account and its password: who is registered, sign-in with its limits and the lock after 100 failures in a row
// (NIST SP 800-63B, section 5.2.2), and a change of password (docs/security.md "Accounts" and "Sign-in and
// passwords"; docs/rules.md "Security"). The account is created by the payment that makes it (services/billing);
// a forgotten password is ./password-reset.ts.

/**
 * Failed sign-ins in a row after which an account's password stops signing in until it is reset with an e-mailed
 * code: NIST SP 800-63B, section 5.2.2 allows at most 100 consecutive failed attempts on one account.
 */
export const LOGIN_LOCK_AFTER_FAILURES = 100;

type Meta = { ip: string | null; userAgent: string | null; locale: string };

/** Why an account call was refused. */
export type AccountRefusal =
  'login_failed' | 'temporary_expired' | 'current_password_wrong' | 'code_invalid' | 'policy';

/**
 * An account call's refusal as a DomainError (docs/rules.md#errors): a wrong or expired sign-in is `unauthenticated`
 * (one answer whatever the cause, so nobody learns which), a wrong current password, reset code or a password the
 * policy refuses is `invalid` naming its field. `messageKey`: the policy's own message (Validation.*).
 */
export class AccountError extends DomainError {
  readonly reason: AccountRefusal;
  constructor(reason: AccountRefusal, messageKey?: string) {
    super(...accountRefusal(reason, messageKey));
    this.reason = reason;
    this.name = 'AccountError';
  }
}

/** The DomainError arguments of each AccountRefusal (see AccountError). */
function accountRefusal(reason: AccountRefusal, messageKey?: string): ConstructorParameters<typeof DomainError> {
  switch (reason) {
    case 'login_failed':
      return ['unauthenticated', 'Api.loginFailed'];
    case 'temporary_expired':
      return ['unauthenticated', 'Api.temporaryExpired'];
    case 'current_password_wrong':
      return ['invalid', 'Api.currentPasswordWrong', {}, { field: 'password' }];
    case 'code_invalid':
      return ['invalid', 'Api.codeInvalid', {}, { field: 'code' }];
    case 'policy':
      return ['invalid', messageKey ?? 'Validation.invalid', {}, { field: 'newPassword' }];
  }
}

const normalize = (email: string) => email.trim().toLowerCase();

/** The account whose login is `email` (normalized), or null. */

export async function findUser(db: Db | Tx, email: string) {
  const [user] = await db
    .select()
    .from(users)
    .where(eq(users.email, normalize(email)))
    .limit(1);
  return user ?? null;
}

/** Whether an account exists for `email` (docs/rules.md#api checkEmail; rate limited per IP by the route). */
export async function isRegistered(db: Db, email: string): Promise<boolean> {
  return (await findUser(db, email)) !== null;
}

/** The id of the account whose login is `email` (normalized), or null (orders for existing accounts). */
export async function accountIdOf(db: Db | Tx, email: string): Promise<string | null> {
  return (await findUser(db, email))?.id ?? null;
}

/** The key of per-address limits: the SHA-256 of the normalized e-mail, the same whether or not it has an account. */
export const emailKey = (email: string) => sha256(`email:${normalize(email)}`);

/**
 * Signs in. Unknown e-mail and wrong password fail alike (same error, same timing, same limits). Throttled without
 * locking the owner out (docs/security.md "Rate limits"): attempts per IP; failures per address and client
 * (an IPv6 client by its /64; an attacker elsewhere does not use up the owner's tries); and a higher ceiling of failures per address from everywhere
 * (LOGIN_FAILURES_PER_ACCOUNT_PER_HOUR). Limits are keyed by the address's hash, so a 429 says nothing about whether it
 * is registered.
 *
 * Failed sign-ins in a row (NIST SP 800-63B, section 5.2.2): every attempt on an account counts one in `users.failed_logins`
 * before its password is checked (one atomic UPDATE, so guesses sent at once each take their own number); a right
 * password clears the count. An attempt numbered past LOGIN_LOCK_AFTER_FAILURES is refused even with the right
 * password, with the same `login_failed` answer (nothing tells a guesser that the account exists or is locked). The
 * wrong guess numbered exactly LOGIN_LOCK_AFTER_FAILURES queues the `login-locked` e-mail to the owner, once per lock,
 * saying how to unlock: a reset code (resetPassword clears the count). A temporary password past its 7 days fails
 * with `temporary_expired`; a correct temporary password opens a restricted session that may only change it.
 */
export async function login(db: Db, email: string, password: string, meta: Meta) {
  const address = emailKey(email);
  const pair = `${address}:${clientKey(meta.ip)}`;
  await consume('loginPerIp', meta.ip ?? 'unknown');
  await assertNotLimited('loginFailuresPerAccountIp', pair);
  await assertNotLimited('loginFailuresPerAccount', address);
  const user = await findUser(db, email);
  const attempt = user ? await countAttempt(db, user.id) : 0;
  const ok = await verifyPassword(user?.passwordHash ?? null, password);
  const failed = async (): Promise<never> => {
    await consume('loginFailuresPerAccountIp', pair);
    await consume('loginFailuresPerAccount', address);
    throw new AccountError('login_failed');
  };
  if (!user) return failed();
  if (!ok) {
    if (attempt === LOGIN_LOCK_AFTER_FAILURES) await queueLockedNotice(db, user, meta.locale);
    return failed();
  }
  if (attempt > LOGIN_LOCK_AFTER_FAILURES) return failed();
  await db.update(users).set({ failedLogins: 0 }).where(eq(users.id, user.id));
  const temporary = user.tempPasswordExpiresAt !== null;
  if (temporary && user.tempPasswordExpiresAt!.getTime() < Date.now()) throw new AccountError('temporary_expired');
  await resetLimit('loginFailuresPerAccountIp', pair);
  const session = await createSession(db, user.id, { ...meta, restricted: temporary });
  return {
    token: session.token,
    user: {
      id: user.id,
      email: user.email,
      paymentCount: user.paymentCount,
      mustChangePassword: temporary,
      choosesFirstPassword: false,
    },
  };
}

/**
 * Counts a sign-in attempt on account `userId` (atomic `failed_logins + 1`, held below 2^31 for an account guessed
 * at for ever) and returns its number in the row.
 */
async function countAttempt(db: Db, userId: string): Promise<number> {
  const [row] = await db
    .update(users)
    .set({ failedLogins: sql`least(${users.failedLogins} + 1, 1000000000)` })
    .where(eq(users.id, userId))
    .returning({ failedLogins: users.failedLogins });
  return row?.failedLogins ?? 0;
}

/**
 * Queues the `login-locked` e-mail to `user` (in the language of their newest order, else `locale`): their password
 * was locked after LOGIN_LOCK_AFTER_FAILURES failed sign-ins in a row, and the link to unlock it with a reset code.
 */
async function queueLockedNotice(db: Db, user: { id: string; email: string }, locale: string): Promise<void> {
  await db.transaction(async (tx) => {
    const [order] = await tx
      .select({ locale: orders.locale })
      .from(orders)
      .where(eq(orders.userId, user.id))
      .orderBy(desc(orders.createdAt))
      .limit(1);
    const language = order?.locale ?? locale;
    const link = localeUrl(env().APP_ORIGIN, language, '/forget/');
    const params = { email: user.email, count: LOGIN_LOCK_AFTER_FAILURES, link };
    await queueEmail(tx, { to: user.email, template: 'login-locked', locale: language, params });
  });
}

/**
 * Changes the signed-in user's password after checking the current one and the policy. The current one is not asked
 * in a restricted session (opened with the temporary password, which it has just proved), nor for the account's first
 * password in the session its payment opened (`session.firstPassword`): that buyer never had to read the e-mailed
 * temporary password, and asking for it proves nothing the session does not (docs/security.md "Accounts"). The
 * temporary password cannot be shown or filled in for them instead: only its argon2id hash is kept (docs/security.md
 * "What is kept of secrets"). Clears a temporary password and the failed sign-ins in
 * a row, lifts the session's restriction, revokes every other session and e-mails a notice, in one transaction. Each
 * check of the current password spends a point of `passwordChecksPerAccount` first (atomic in PostgreSQL, so guesses sent
 * at once are counted too); a success gives them back. Throws RateLimitedError past the limit.
 */
export async function changePassword(
  db: Db,
  session: SessionUser,
  current: string | undefined,
  next: string,
  locale: string,
) {
  const [user] = await db.select().from(users).where(eq(users.id, session.id));
  // A session opened with the temporary password has just proved it, and the payment's own session chooses the first
  // password; any other must give the current one again.
  if ((!session.restricted && !session.firstPassword) || current !== undefined) {
    if (current === undefined)
      throw new DomainError('invalid', 'Validation.passwordRequired', {}, { field: 'password' });
    await consume('passwordChecksPerAccount', user.id);
    if (!(await verifyPassword(user.passwordHash, current))) throw new AccountError('current_password_wrong');
    await resetLimit('passwordChecksPerAccount', user.id);
  }
  const problem = await newPasswordProblem(next);
  if (problem) throw new AccountError('policy', problem);
  const passwordHash = await hashPassword(next);
  return db.transaction(async (tx) => {
    await tx
      .update(users)
      .set({ passwordHash, tempPasswordExpiresAt: null, passwordChangedAt: new Date(), failedLogins: 0 })
      .where(eq(users.id, user.id));
    await tx.update(sessions).set({ restricted: false }).where(eq(sessions.id, session.sessionId));
    await revokeOtherSessions(tx, user.id, session.sessionId);
    return [await queueChangedNotice(tx, user.email, locale)];
  });
}

/** Queues the `password-changed` notice to `email` inside `tx` (a change or a reset of the password). */
export function queueChangedNotice(tx: Parameters<typeof queueEmail>[0], email: string, locale: string) {
  return queueEmail(tx, {
    to: email,
    template: 'password-changed',
    locale,
    params: { email, link: `${env().APP_ORIGIN}/forget/` },
  });
}
