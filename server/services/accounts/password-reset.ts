import 'server-only';
import { randomInt, timingSafeEqual } from 'node:crypto';
import { and, desc, eq, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { passwordResetCodes, users } from '../../db/schema';
import { queueEmail } from '../messaging';
import { consume } from '../rate-limit';
import { sha256 } from '../tokens';
import { AccountError, emailKey, findUser, queueChangedNotice } from './accounts';
import { hashPassword, newPasswordProblem } from './passwords';
import { createSession, revokeOtherSessions } from './sessions';

// A forgotten password: a 6-digit code e-mailed to the address, and the reset that spends it (docs/rules.md
// "Validation"; docs/security.md "Sign-in and passwords": the same answer whether or not the address has an account,
// the code stored as SHA-256, locked while a guess is checked, burnt by the 5th wrong one).

/** Reset codes: 6 digits, valid 15 minutes, burnt by the 5th wrong guess. */
export const RESET_CODE_TTL_MS = 15 * 60 * 1000;
export const RESET_CODE_MAX_FAILURES = 5;

/**
 * E-mails a 6-digit reset code to `email` when an account exists (a new code voids the previous one); answers the
 * same either way, so the call does not reveal who has an account: the limits (per address hash and per IP) are
 * spent before the look-up, registered or not.
 */
export async function sendResetCode(db: Db, email: string, locale: string, ip: string | null): Promise<void> {
  await consume('codesPerIp', ip ?? 'unknown');
  await consume('codesPerAccount', emailKey(email));
  const user = await findUser(db, email);
  if (!user) return;
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  await db.transaction(async (tx) => {
    await tx
      .update(passwordResetCodes)
      .set({ consumedAt: new Date() })
      .where(and(eq(passwordResetCodes.userId, user.id), isNull(passwordResetCodes.consumedAt)));
    await tx.insert(passwordResetCodes).values({
      userId: user.id,
      codeHash: sha256(`${user.id}:${code}`),
      expiresAt: new Date(Date.now() + RESET_CODE_TTL_MS),
    });
    await queueEmail(tx, { to: user.email, template: 'reset-code', locale, params: { code } });
  });
}

/**
 * Resets the password of `email` with its newest code. The code row is locked while it is checked, so guesses sent at
 * once are counted one after another: a wrong code counts a failure and the 5th burns the code, however
 * the guesses arrive; an expired, used, voided or foreign code fails alike (`code_invalid`). The route also limits
 * attempts per IP. The new password's policy is checked first (no guess is spent on a weak password). On success: the
 * code is used, the password set (temporary one cleared), the failed sign-ins in a row cleared (which unlocks an
 * account locked by LOGIN_LOCK_AFTER_FAILURES), every session revoked, a notice e-mailed and a new session opened for
 * the person who reset, in one transaction: the code proved they hold the address, as signing in with the password
 * they just chose would, so they are not sent to sign in again (docs/security.md "Sign-in and passwords"). The
 * session is an ordinary one, opened by the one session module (`createSession`). Returns its token and the user as the
 * API answers it.
 */
export async function resetPassword(
  db: Db,
  email: string,
  code: string,
  next: string,
  meta: { locale: string; ip: string | null; userAgent: string | null },
) {
  const problem = await newPasswordProblem(next);
  if (problem) throw new AccountError('policy', problem);
  const user = await findUser(db, email);
  if (!user) throw new AccountError('code_invalid');
  const passwordHash = await hashPassword(next);
  const given = Buffer.from(sha256(`${user.id}:${code}`));
  const outcome = await db.transaction(async (tx) => {
    const [pending] = await tx
      .select()
      .from(passwordResetCodes)
      .where(and(eq(passwordResetCodes.userId, user.id), isNull(passwordResetCodes.consumedAt)))
      .orderBy(desc(passwordResetCodes.createdAt))
      .limit(1)
      .for('update');
    if (!pending || pending.expiresAt.getTime() < Date.now()) return null;
    if (!timingSafeEqual(given, Buffer.from(pending.codeHash))) {
      const failures = pending.failedAttempts + 1;
      await tx
        .update(passwordResetCodes)
        .set({ failedAttempts: failures, consumedAt: failures >= RESET_CODE_MAX_FAILURES ? new Date() : null })
        .where(eq(passwordResetCodes.id, pending.id));
      return null;
    }
    await tx.update(passwordResetCodes).set({ consumedAt: new Date() }).where(eq(passwordResetCodes.id, pending.id));
    await tx
      .update(users)
      .set({ passwordHash, tempPasswordExpiresAt: null, passwordChangedAt: new Date(), failedLogins: 0 })
      .where(eq(users.id, user.id));
    await revokeOtherSessions(tx, user.id);
    await queueChangedNotice(tx, user.email, meta.locale);
    return createSession(tx, user.id, { ip: meta.ip, userAgent: meta.userAgent });
  });
  // Thrown after the commit, so the counted failure is kept.
  if (!outcome) throw new AccountError('code_invalid');
  return {
    token: outcome.token,
    user: {
      id: user.id,
      email: user.email,
      paymentCount: user.paymentCount,
      mustChangePassword: false,
      choosesFirstPassword: false,
    },
  };
}
