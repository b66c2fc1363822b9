import 'server-only';
import { randomInt, timingSafeEqual } from 'node:crypto';
import { and, desc, eq, isNull } from 'drizzle-orm';
import type { Db } from '../db/client';
import { passwordResetCodes, sessions, users } from '../db/schema';
import { env } from '../env';
import { queueEmail } from './outbox-queue';
import { TEMP_PASSWORD_TTL_MS, hashPassword, passwordProblem, verifyPassword } from './passwords';
import { consume, resetLimit } from './rate-limit';
import { createSession, revokeOtherSessions, type SessionUser } from './sessions';
import { generatePassword, sha256 } from './tokens';

/** Reset codes: 6 digits, valid 15 minutes, burnt by the 5th wrong guess (ISSUE 3). */
export const RESET_CODE_TTL_MS = 15 * 60 * 1000;
export const RESET_CODE_MAX_FAILURES = 5;

type Meta = { ip: string | null; userAgent: string | null; locale: string };

/** Why an account call was refused; routes map each to a status and message. */
export class AccountError extends Error {
  constructor(
    readonly reason: 'login_failed' | 'temporary_expired' | 'current_password_wrong' | 'code_invalid' | 'policy',
    readonly messageKey?: string,
  ) {
    super(reason);
    this.name = 'AccountError';
  }
}

const normalize = (email: string) => email.trim().toLowerCase();

async function findUser(db: Db, email: string) {
  const [user] = await db
    .select()
    .from(users)
    .where(eq(users.email, normalize(email)))
    .limit(1);
  return user ?? null;
}

/** Whether an account exists for `email` (SPEC §7 checkEmail; rate limited per IP by the route). */
export async function isRegistered(db: Db, email: string): Promise<boolean> {
  return (await findUser(db, email)) !== null;
}

/**
 * Signs in. Unknown e-mail and wrong password fail alike (same error, same timing). Rate limited per IP and, for
 * failures, per account. A temporary password past its 7 days fails with `temporary_expired`; a correct temporary
 * password opens a restricted session that may only change the password.
 */
export async function login(db: Db, email: string, password: string, meta: Meta) {
  await consume('loginPerIp', meta.ip ?? 'unknown');
  const user = await findUser(db, email);
  if (user) await consume('loginPerAccount', user.id);
  const ok = await verifyPassword(user?.passwordHash ?? null, password);
  if (!user || !ok) throw new AccountError('login_failed');
  const temporary = user.tempPasswordExpiresAt !== null;
  if (temporary && user.tempPasswordExpiresAt!.getTime() < Date.now()) throw new AccountError('temporary_expired');
  await resetLimit('loginPerAccount', user.id);
  const session = await createSession(db, user.id, { ...meta, restricted: temporary });
  return {
    token: session.token,
    user: { id: user.id, email: user.email, paymentCount: user.paymentCount, mustChangePassword: temporary },
  };
}

/**
 * Changes the signed-in user's password after checking the current one and the policy. Clears a temporary password,
 * lifts the session's restriction, revokes every other session and e-mails a notice, in one transaction.
 */
export async function changePassword(db: Db, session: SessionUser, current: string, next: string, locale: string) {
  const [user] = await db.select().from(users).where(eq(users.id, session.id));
  if (!(await verifyPassword(user.passwordHash, current))) throw new AccountError('current_password_wrong');
  const problem = passwordProblem(next);
  if (problem) throw new AccountError('policy', problem);
  const passwordHash = await hashPassword(next);
  return db.transaction(async (tx) => {
    await tx
      .update(users)
      .set({ passwordHash, tempPasswordExpiresAt: null, passwordChangedAt: new Date() })
      .where(eq(users.id, user.id));
    await tx.update(sessions).set({ restricted: false }).where(eq(sessions.id, session.sessionId));
    await revokeOtherSessions(tx, user.id, session.sessionId);
    return [await queueChangedNotice(tx, user.email, locale)];
  });
}

function queueChangedNotice(tx: Parameters<typeof queueEmail>[0], email: string, locale: string) {
  return queueEmail(tx, {
    to: email,
    template: 'password-changed',
    locale,
    params: { email, link: `${env().APP_ORIGIN}/forget/` },
  });
}

/**
 * E-mails a 6-digit reset code to `email` when an account exists (a new code voids the previous one); answers the
 * same either way, so the call does not reveal who has an account. Limited per account per hour. Returns the outbox
 * ids to enqueue.
 */
export async function sendResetCode(db: Db, email: string, locale: string): Promise<string[]> {
  const user = await findUser(db, email);
  if (!user) return [];
  await consume('codesPerAccount', user.id);
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  return db.transaction(async (tx) => {
    await tx
      .update(passwordResetCodes)
      .set({ consumedAt: new Date() })
      .where(and(eq(passwordResetCodes.userId, user.id), isNull(passwordResetCodes.consumedAt)));
    await tx.insert(passwordResetCodes).values({
      userId: user.id,
      codeHash: sha256(`${user.id}:${code}`),
      expiresAt: new Date(Date.now() + RESET_CODE_TTL_MS),
    });
    return [await queueEmail(tx, { to: user.email, template: 'reset-code', locale, params: { code } })];
  });
}

/**
 * Resets the password of `email` with its newest code. A wrong code counts a failure and the 5th burns the code; an
 * expired, used, voided or foreign code fails alike (`code_invalid`). On success: the code is used, the password set
 * (temporary one cleared), every session revoked and a notice e-mailed, in one transaction.
 */
export async function resetPassword(db: Db, email: string, code: string, next: string, locale: string) {
  const user = await findUser(db, email);
  const [pending] = user
    ? await db
        .select()
        .from(passwordResetCodes)
        .where(and(eq(passwordResetCodes.userId, user.id), isNull(passwordResetCodes.consumedAt)))
        .orderBy(desc(passwordResetCodes.createdAt))
        .limit(1)
    : [];
  if (!user || !pending || pending.expiresAt.getTime() < Date.now()) throw new AccountError('code_invalid');
  const given = Buffer.from(sha256(`${user.id}:${code}`));
  if (!timingSafeEqual(given, Buffer.from(pending.codeHash))) {
    const failures = pending.failedAttempts + 1;
    await db
      .update(passwordResetCodes)
      .set({ failedAttempts: failures, consumedAt: failures >= RESET_CODE_MAX_FAILURES ? new Date() : null })
      .where(eq(passwordResetCodes.id, pending.id));
    throw new AccountError('code_invalid');
  }
  const problem = passwordProblem(next);
  if (problem) throw new AccountError('policy', problem);
  const passwordHash = await hashPassword(next);
  return db.transaction(async (tx) => {
    await tx.update(passwordResetCodes).set({ consumedAt: new Date() }).where(eq(passwordResetCodes.id, pending.id));
    await tx
      .update(users)
      .set({ passwordHash, tempPasswordExpiresAt: null, passwordChangedAt: new Date() })
      .where(eq(users.id, user.id));
    await revokeOtherSessions(tx, user.id);
    return [await queueChangedNotice(tx, user.email, locale)];
  });
}

/**
 * E-mails a fresh temporary password (for buyers who lost the credentials e-mail). Only an account that still has a
 * temporary password gets one: a password the user chose is never replaced this way, so nobody can lock another
 * user out. Answers the same whether or not anything was sent. Limited per account per hour.
 */
export async function sendTemporaryPassword(db: Db, email: string, locale: string): Promise<string[]> {
  const user = await findUser(db, email);
  if (!user || user.tempPasswordExpiresAt === null) return [];
  await consume('codesPerAccount', user.id);
  const password = generatePassword(16);
  const passwordHash = await hashPassword(password);
  return db.transaction(async (tx) => {
    await tx
      .update(users)
      .set({ passwordHash, tempPasswordExpiresAt: new Date(Date.now() + TEMP_PASSWORD_TTL_MS) })
      .where(eq(users.id, user.id));
    return [
      await queueEmail(tx, {
        to: user.email,
        template: 'temporary-password',
        locale,
        params: { password, link: `${env().APP_ORIGIN}/login/` },
      }),
    ];
  });
}
