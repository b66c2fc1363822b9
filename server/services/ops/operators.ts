import 'server-only';
import { and, eq, isNull } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import type { Db } from '../../db/client';
import { operatorAudit, operators, operatorSessions } from '../../db/schema';
import { env } from '../../env';
import { DomainError } from '../../errors';
import { hashPassword, verifyPassword } from '../accounts';
import { clientKey } from '../client-ip';
import { consume, giveBack, resetLimit } from '../rate-limit';
import { issueSession, liveSessionWhere, revokeSessions } from '../sessions';
import { generatePassword, sha256 } from '../tokens';
import type { OperatorView } from './types';
import { audit } from './audit';
import type { OpsSignInBody } from '../../../lib/contracts/ops';

// Operators and their console sessions: creation (CLI), sign-in with password and TOTP code, session look-up, sign-out.
// The session itself (token, 12 hours, revocation) is the one session module's (services/sessions.ts, kind `operator`).

/** The TOTP parameters of RFC 6238 that authenticator apps assume: SHA-1, 6 digits, 30-second steps. */
function totpOf(secret: string, label = 'operator'): TOTP {
  return new TOTP({
    issuer: `${env().NEXT_PUBLIC_PRODUCT_NAME} ops`,
    label,
    algorithm: 'SHA1',
    digits: 6,
    period: 30,
    secret: Secret.fromBase32(secret),
  });
}

/**
 * Creates an operator (the CLI `npm run ops:create-operator -- email`): a generated 20-character password (unless one
 * is given) and a new 160-bit TOTP secret. Returns the password and the `otpauth://` URI to enrol an authenticator
 * app; neither is stored in the clear except the TOTP secret, which checking a code needs. An existing operator of
 * that e-mail: DomainError `conflict`.
 */
export async function createOperator(
  db: Db,
  email: string,
  password = generatePassword(20),
): Promise<{ id: string; password: string; secret: string; uri: string }> {
  const address = email.trim().toLowerCase();
  const secret = new Secret({ size: 20 }).base32;
  const [row] = await db
    .insert(operators)
    .values({ email: address, passwordHash: await hashPassword(password), totpSecret: secret })
    .onConflictDoNothing()
    .returning({ id: operators.id });
  if (!row) throw new DomainError('conflict', 'Api.conflict');
  await db.insert(operatorAudit).values({
    operatorId: row.id,
    operatorEmail: address,
    action: 'operator.create',
    targetType: 'operator',
    targetId: row.id,
    reason: 'created from the command line',
  });
  return { id: row.id, password, secret, uri: totpOf(secret, address).toString() };
}

/** Why a console sign-in failed, as the audit log records it (never the password or the code). */
export type OpsSignInFailure = 'unknown_address' | 'disabled' | 'wrong_password' | 'wrong_code' | 'replayed_code';

/**
 * Signs an operator in with e-mail, password and a current TOTP code (±1 step of 30 s for clock drift). One answer
 * (401 `Api.loginFailed`) for any wrong part. A code is accepted once: its step must be later than the last accepted
 * one, checked and stored under the operator's row lock, so a code seen over a shoulder cannot be replayed.
 *
 * Limits (429, docs/running.md "The operator console"), shaped as the buyers' sign-in so that a stranger cannot keep an operator
 * out: `opsLoginPerIp` attempts per client (an IPv6 client by its /64); `opsLoginFailuresPerEmailIp` failures per
 * address hash and client (5 per 15 min); `opsLoginFailuresPerEmail` failures per address hash from everywhere (100
 * per hour). All are spent before the password is checked (atomic in PostgreSQL, so a burst of guesses cannot pass
 * them); a success clears the address-and-client count and gives the address's point back.
 *
 * Every failed check (not a 429) appends `sign_in.failed` to the audit log: the operator's id and e-mail when the
 * address is an operator's, otherwise `operatorEmail` '-' and the SHA-256 of the typed address (the rate limits' key)
 * in `detail.addressSha256`; `detail.ip`; the reason (OpsSignInFailure). Never the password or the code.
 * Returns the session token (256 bits, stored as SHA-256) and its expiry.
 */
export async function opsSignIn(
  db: Db,
  input: OpsSignInBody,
  ip: string | null,
): Promise<{ token: string; expiresAt: Date; operator: { id: string; email: string } }> {
  const address = input.email.trim().toLowerCase();
  const emailKey = sha256(`ops:${address}`);
  const pairKey = `${emailKey}:${clientKey(ip)}`;
  await consume('opsLoginPerIp', ip ?? 'unknown');
  await consume('opsLoginFailuresPerEmailIp', pairKey);
  await consume('opsLoginFailuresPerEmail', emailKey);
  // Looked up with disabled operators too, so the audit entry names who was tried; a disabled one still fails.
  const [candidate] = await db.select().from(operators).where(eq(operators.email, address));
  const failed = async (reason: OpsSignInFailure): Promise<never> => {
    await db.insert(operatorAudit).values({
      operatorId: candidate?.id ?? null,
      operatorEmail: candidate?.email ?? '-',
      action: 'sign_in.failed',
      reason,
      detail: { ip, ...(candidate ? {} : { addressSha256: emailKey }) },
    });
    throw new DomainError('unauthenticated', 'Api.loginFailed');
  };
  const passwordOk = await verifyPassword(candidate?.passwordHash ?? null, input.password);
  if (!candidate) return failed('unknown_address');
  if (!passwordOk) return failed('wrong_password');
  if (candidate.disabledAt !== null) return failed('disabled');
  const session = await db.transaction(async (tx) => {
    const [op] = await tx.select().from(operators).where(eq(operators.id, candidate.id)).for('update');
    const delta = totpOf(op.totpSecret).validate({ token: input.code.replace(/\s/g, ''), window: 1 });
    if (delta === null) return 'wrong_code' as const;
    const step = Math.floor(Date.now() / 30_000) + delta;
    if (op.totpLastStep !== null && step <= op.totpLastStep) return 'replayed_code' as const;
    await tx.update(operators).set({ totpLastStep: step }).where(eq(operators.id, op.id));
    const { token, expiresAt } = await issueSession(tx, 'operator', { operatorId: op.id, ip });
    await tx.insert(operatorAudit).values({ operatorId: op.id, operatorEmail: op.email, action: 'sign_in' });
    return { token, expiresAt, operator: { id: op.id, email: op.email } };
  });
  if (typeof session === 'string') return failed(session);
  await resetLimit('opsLoginFailuresPerEmailIp', pairKey);
  await giveBack('opsLoginFailuresPerEmail', emailKey);
  return session;
}

/**
 * The operator of a live console session token (not revoked, within its 12 hours: services/sessions.ts
 * `liveSessionWhere`), or null; a disabled operator's sessions are no sessions.
 */
export async function findOperator(db: Db, token: string): Promise<OperatorView | null> {
  const [row] = await db
    .select({ id: operators.id, email: operators.email, sessionId: operatorSessions.id })
    .from(operatorSessions)
    .innerJoin(operators, eq(operators.id, operatorSessions.operatorId))
    .where(and(liveSessionWhere('operator', token), isNull(operators.disabledAt)));
  return row ?? null;
}

/** Ends a console session and writes `sign_out` to the audit log. */
export async function opsSignOut(db: Db, operator: OperatorView): Promise<void> {
  await db.transaction(async (tx) => {
    await revokeSessions(tx, 'operator', eq(operatorSessions.id, operator.sessionId));
    await audit(tx, operator, 'sign_out');
  });
}
