import 'server-only';
import { and, desc, eq, gt, ilike, inArray, isNull, or, sql } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import type { Db, Tx } from '../db/client';
import {
  consents,
  locationRequests,
  operatorAudit,
  operators,
  operatorSessions,
  optOuts,
  orders,
  outboundMessages,
  refunds,
  subscriptions,
  supportMessages,
  users,
} from '../db/schema';
import { env } from '../env';
import { ApiError, ErrorCode, notFound } from '../errors';
import { paymentProvider } from '../providers/payments';
import { funnelReport } from './events';
import { queueEmail } from './outbox-queue';
import { hashPassword, verifyPassword } from './passwords';
import { clientKey } from './client-ip';
import { parsePhone, PhoneParseError } from './phone-info';
import { consume, giveBack, resetLimit } from './rate-limit';
import { refundOrder } from './refunds';
import { withdrawals } from '../db/schema/withdrawals';
import { consentRecordView, subscriptionConsentsOfOrders } from './subscription-consents';
import { cancelSubscriptions } from './subscriptions';
import { generatePassword, randomToken, sha256 } from './tokens';

/** Lifetime of an operator session (ms): 12 hours from sign-in, never extended. */
export const OPS_SESSION_MS = 12 * 3600 * 1000;

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

/** The operator as the console sees them: never the password hash or the TOTP secret. */
export type OperatorView = { id: string; email: string; sessionId: string };

/**
 * Creates an operator (the CLI `npm run ops:create-operator -- email`): a generated 20-character password (unless one
 * is given) and a new 160-bit TOTP secret. Returns the password and the `otpauth://` URI to enrol an authenticator
 * app; neither is stored in the clear except the TOTP secret, which checking a code needs. An existing operator of
 * that e-mail: ApiError 409.
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
  if (!row) throw new ApiError(409, ErrorCode.conflict, 'Api.conflict');
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
 * Limits (429, README "Operator console"), shaped as the buyers' sign-in so that a stranger cannot keep an operator
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
  input: { email: string; password: string; code: string },
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
    throw new ApiError(401, ErrorCode.loginFailed, 'Api.loginFailed');
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
    const token = randomToken(32);
    const expiresAt = new Date(Date.now() + OPS_SESSION_MS);
    await tx.insert(operatorSessions).values({ operatorId: op.id, tokenHash: sha256(token), ip, expiresAt });
    await tx.insert(operatorAudit).values({ operatorId: op.id, operatorEmail: op.email, action: 'sign_in' });
    return { token, expiresAt, operator: { id: op.id, email: op.email } };
  });
  if (typeof session === 'string') return failed(session);
  await resetLimit('opsLoginFailuresPerEmailIp', pairKey);
  await giveBack('opsLoginFailuresPerEmail', emailKey);
  return session;
}

/** The operator of a live console session token (not revoked, not expired, operator not disabled), or null. */
export async function findOperator(db: Db, token: string): Promise<OperatorView | null> {
  const [row] = await db
    .select({ id: operators.id, email: operators.email, sessionId: operatorSessions.id })
    .from(operatorSessions)
    .innerJoin(operators, eq(operators.id, operatorSessions.operatorId))
    .where(
      and(
        eq(operatorSessions.tokenHash, sha256(token)),
        isNull(operatorSessions.revokedAt),
        gt(operatorSessions.expiresAt, sql`now()`),
        isNull(operators.disabledAt),
      ),
    );
  return row ?? null;
}

/** Ends a console session and writes `sign_out` to the audit log. */
export async function opsSignOut(db: Db, operator: OperatorView): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.update(operatorSessions).set({ revokedAt: new Date() }).where(eq(operatorSessions.id, operator.sessionId));
    await audit(tx, operator, 'sign_out');
  });
}

/**
 * Appends one entry to the audit log, in the caller's transaction when it has one so the entry and the
 * change commit together. `detail` must hold no secret.
 */
export async function audit(
  tx: Db | Tx,
  operator: Pick<OperatorView, 'id' | 'email'>,
  action: string,
  target?: { type: string; id: string },
  reason?: string,
  detail?: Record<string, unknown>,
): Promise<void> {
  await tx.insert(operatorAudit).values({
    operatorId: operator.id,
    operatorEmail: operator.email,
    action,
    targetType: target?.type,
    targetId: target?.id,
    reason,
    detail,
  });
}

/** The E.164 form of `input` (international, with or without `+`) by the project's parser, or null. */
function e164OrNull(input: string): string | null {
  const trimmed = input.trim();
  try {
    return parsePhone(trimmed.startsWith('+') ? trimmed : `+${trimmed}`).number;
  } catch (error) {
    if (error instanceof PhoneParseError) return null;
    throw error;
  }
}

/** The E.164 form of a searched number, when the query reads as one (digits and separators only). */
function phoneOf(query: string): string | null {
  const digits = query.replace(/[\s().-]/g, '');
  return /^\+?\d{6,15}$/.test(digits) ? e164OrNull(digits) : null;
}

/**
 * Orders matching `query`: an order code or reference (`CH-7K4M-2Q`, what a customer quotes; exact,
 * any case), an e-mail (part of it, case-insensitive) or a phone
 * number (E.164, with or without `+`), newest first, at most 50, each with its subscriptions and refund. An empty
 * query lists the newest orders. Amounts in minor units. A withdrawal from the contract (services/withdrawals.ts) is
 * shown with who made it, when, from where and the refund (`withdrawal`, null when none); the buyer's consent to the
 * subscription at Pay with the exact terms shown (`subscriptionConsent`, services/subscription-consents.ts).
 */
export async function searchOrders(db: Db, query: string) {
  const q = query.trim();
  const phone = phoneOf(q);
  const where = !q
    ? undefined
    : or(
        eq(orders.code, q),
        eq(orders.reference, q.toUpperCase()),
        ilike(orders.email, `%${q.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`),
        phone ? eq(orders.phoneE164, phone) : undefined,
      );
  const rows = await db
    .select({
      id: orders.id,
      code: orders.code,
      reference: orders.reference,
      email: orders.email,
      phoneE164: orders.phoneE164,
      status: orders.status,
      amountMinor: orders.amountMinor,
      currency: orders.currency,
      provider: orders.provider,
      createdAt: orders.createdAt,
      paidAt: orders.paidAt,
      refundedAt: orders.refundedAt,
      userId: orders.userId,
    })
    .from(orders)
    .where(where)
    .orderBy(desc(orders.createdAt))
    .limit(50);
  const ids = rows.map((r) => r.id);
  const subs = ids.length
    ? await db
        .select({
          id: subscriptions.id,
          orderId: subscriptions.orderId,
          status: subscriptions.status,
          currentPeriodEnd: subscriptions.currentPeriodEnd,
          cancelAt: subscriptions.cancelAt,
          canceledAt: subscriptions.canceledAt,
        })
        .from(subscriptions)
        .where(inArray(subscriptions.orderId, ids))
    : [];
  const refundRows = ids.length
    ? await db
        .select({ orderId: refunds.orderId, amountMinor: refunds.amountMinor, createdAt: refunds.createdAt })
        .from(refunds)
        .where(inArray(refunds.orderId, ids))
    : [];
  const withdrawalRows = ids.length
    ? await db
        .select({
          orderId: withdrawals.orderId,
          withdrawnAt: withdrawals.withdrawnAt,
          via: withdrawals.via,
          ip: withdrawals.ip,
          userAgent: withdrawals.userAgent,
          timeZone: withdrawals.timeZone,
          rule: withdrawals.rule,
          paidMinor: withdrawals.paidMinor,
          refundMinor: withdrawals.refundMinor,
        })
        .from(withdrawals)
        .where(inArray(withdrawals.orderId, ids))
    : [];
  const consentRows = await subscriptionConsentsOfOrders(db, ids);
  const consentView = (row: (typeof consentRows)[number] | undefined) => (row ? consentRecordView(row) : null);
  return rows.map((r) => ({
    ...r,
    subscriptions: subs.filter((s) => s.orderId === r.id),
    refund: refundRows.find((f) => f.orderId === r.id) ?? null,
    withdrawal: withdrawalRows.find((w) => w.orderId === r.id) ?? null,
    subscriptionConsent: consentView(consentRows.find((x) => x.orderId === r.id)),
  }));
}

/**
 * Refunds an order for an operator through the buyer's own refund service (`refundOrder`: the provider's idempotency
 * key, the subscription ended, the buyer e-mailed), with the same eligibility rules (409 with the reason otherwise),
 * and writes `order.refund` to the audit log. Unknown order: 404. Returns the outbox ids to enqueue.
 */
export async function opsRefund(db: Db, operator: OperatorView, orderId: string, reason: string) {
  const [order] = await db.select().from(orders).where(eq(orders.id, orderId));
  if (!order?.userId) throw notFound();
  const result = await refundOrder(db, order.userId, order.code, 'en');
  await audit(db, operator, 'order.refund', { type: 'order', id: order.id }, reason, {
    code: order.code,
    amountMinor: result.refund.amountMinor,
    currency: result.refund.currency,
    repeated: result.repeated,
  });
  return result;
}

/**
 * Cancels the live subscriptions of the buyer of `orderId` at their period end, through the buyer's own service
 * (`cancelSubscriptions`: the provider first, then the state machine and the confirmation e-mail), and writes
 * `subscription.cancel` to the audit log. Unknown order: 404; nothing live: 409.
 */
export async function opsCancel(db: Db, operator: OperatorView, orderId: string, reason: string) {
  const [order] = await db.select().from(orders).where(eq(orders.id, orderId));
  if (!order?.userId) throw notFound();
  const result = await cancelSubscriptions(db, order.userId, (sub) =>
    paymentProvider(sub.provider).cancelAtPeriodEnd(sub),
  );
  if (!result.cancelAt.length) throw new ApiError(409, ErrorCode.conflict, 'Api.nothingToCancel');
  await audit(db, operator, 'subscription.cancel', { type: 'order', id: order.id }, reason, {
    code: order.code,
    cancelAt: result.cancelAt.map((d) => d.toISOString()),
  });
  return result;
}

/**
 * Abuse reports (the owners' `reported` decisions, newest first, at most 100, with the owner's optional reason: plain
 * text, at most 140 characters, no links or numbers) with the reported request's buyer, and
 * the opt-out list. No consent code, token or SMS text is returned.
 */
export async function abuseOverview(db: Db) {
  const reports = await db
    .select({
      id: consents.id,
      requestId: consents.requestId,
      targetE164: consents.targetE164,
      reportedAt: consents.createdAt,
      reason: consents.reason,
      buyerEmail: users.email,
      requestStatus: locationRequests.status,
    })
    .from(consents)
    .leftJoin(locationRequests, eq(locationRequests.id, consents.requestId))
    .leftJoin(users, eq(users.id, locationRequests.userId))
    .where(eq(consents.decision, 'reported'))
    .orderBy(desc(consents.createdAt))
    .limit(100);
  const optOutList = await db.select().from(optOuts).orderBy(desc(optOuts.createdAt)).limit(500);
  return { reports, optOuts: optOutList };
}

/** A phone number as the opt-out list keys it (E.164), or a 422 naming the field. */
function e164Of(phone: string): string {
  const e164 = e164OrNull(phone);
  if (!e164) throw new ApiError(422, ErrorCode.validation, 'Validation.phoneInvalid', {}, { field: 'phone' });
  return e164;
}

/**
 * Adds a number to the opt-out list (no consent SMS goes to it any more; services/sms-guards.ts) with the operator's
 * reason, and audits `opt_out.add`. A number already listed keeps its first reason (200, `added: false`).
 */
export async function addOptOut(db: Db, operator: OperatorView, phone: string, reason: string) {
  const phoneE164 = e164Of(phone);
  return db.transaction(async (tx) => {
    const rows = await tx
      .insert(optOuts)
      .values({ phoneE164, reason: 'operator', note: reason })
      .onConflictDoNothing()
      .returning();
    await audit(tx, operator, 'opt_out.add', { type: 'phone', id: phoneE164 }, reason, { added: rows.length > 0 });
    return { phoneE164, added: rows.length > 0 };
  });
}

/** Removes a number from the opt-out list (consent SMS may go to it again) and audits `opt_out.remove`. 404 if absent. */
export async function removeOptOut(db: Db, operator: OperatorView, phone: string, reason: string) {
  const phoneE164 = e164Of(phone);
  return db.transaction(async (tx) => {
    const [removed] = await tx.delete(optOuts).where(eq(optOuts.phoneE164, phoneE164)).returning();
    if (!removed) throw notFound();
    await audit(tx, operator, 'opt_out.remove', { type: 'phone', id: phoneE164 }, reason, {
      previousReason: removed.reason,
    });
    return { phoneE164 };
  });
}

/**
 * Messages that did not reach their provider: `failed` ones, and `queued` ones waiting for a retry after an error
 * (newest first, at most 200). Bodies are never returned (they may carry a consent link or a temporary password until
 * redacted): channel, recipient, template, subject, attempts, the last error and the next attempt.
 */
export async function undeliveredMessages(db: Db) {
  return db
    .select({
      id: outboundMessages.id,
      channel: outboundMessages.channel,
      recipient: outboundMessages.recipient,
      template: outboundMessages.template,
      subject: outboundMessages.subject,
      status: outboundMessages.status,
      attempts: outboundMessages.attempts,
      lastError: outboundMessages.lastError,
      nextAttemptAt: outboundMessages.nextAttemptAt,
      redacted: sql<boolean>`${outboundMessages.redactedAt} is not null`,
      createdAt: outboundMessages.createdAt,
    })
    .from(outboundMessages)
    .where(
      or(
        eq(outboundMessages.status, 'failed'),
        and(eq(outboundMessages.status, 'queued'), sql`${outboundMessages.lastError} is not null`),
      ),
    )
    .orderBy(desc(outboundMessages.createdAt))
    .limit(200);
}

/**
 * Puts a failed (or retry-waiting) message back in the queue for a new round of attempts, due at once, and audits
 * `message.retry`. A message finally failed has had its secrets removed, so it is re-sent as redacted
 * (the buyer asks for a reset code instead of a lost temporary password). Other states: 409. Returns the row id to
 * enqueue.
 */
export async function retryMessage(db: Db, operator: OperatorView, id: string, reason: string): Promise<string> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(outboundMessages)
      .set({ status: 'queued', attempts: 0, nextAttemptAt: null, leaseUntil: null })
      .where(
        and(
          eq(outboundMessages.id, id),
          or(
            eq(outboundMessages.status, 'failed'),
            and(eq(outboundMessages.status, 'queued'), sql`${outboundMessages.lastError} is not null`),
          ),
        ),
      )
      .returning({ id: outboundMessages.id, channel: outboundMessages.channel, template: outboundMessages.template });
    if (!row) {
      const [exists] = await tx
        .select({ id: outboundMessages.id })
        .from(outboundMessages)
        .where(eq(outboundMessages.id, id));
      if (!exists) throw notFound();
      throw new ApiError(409, ErrorCode.conflict, 'Api.conflict');
    }
    await audit(tx, operator, 'message.retry', { type: 'message', id }, reason, {
      channel: row.channel,
      template: row.template,
    });
    return row.id;
  });
}

/** Contact-form messages, newest first (at most 200), with when an operator last replied. */
export async function supportInbox(db: Db) {
  return db.select().from(supportMessages).orderBy(desc(supportMessages.createdAt)).limit(200);
}

/**
 * Replies by e-mail to a contact-form message (template `support-reply`, in the message's language, through the
 * outbox), marks it replied and audits `support.reply` (the reply's length, not its text). Unknown message: 404.
 * Returns the outbox id to enqueue.
 */
export async function replySupport(db: Db, operator: OperatorView, id: string, reply: string): Promise<string> {
  return db.transaction(async (tx) => {
    const [message] = await tx
      .update(supportMessages)
      .set({ repliedAt: new Date() })
      .where(eq(supportMessages.id, id))
      .returning();
    if (!message) throw notFound();
    const emailId = await queueEmail(tx, {
      to: message.email,
      template: 'support-reply',
      locale: message.locale,
      params: { name: message.name, reply },
    });
    await audit(tx, operator, 'support.reply', { type: 'support_message', id }, undefined, { length: reply.length });
    return emailId;
  });
}

/** The funnel report of the last `days` days (services/events.ts), as the CLI prints it. */
export function opsFunnel(db: Db, days: number) {
  return funnelReport(db, days);
}

/** The newest audit entries (at most 200). */
export function auditLog(db: Db) {
  return db.select().from(operatorAudit).orderBy(desc(operatorAudit.id)).limit(200);
}
