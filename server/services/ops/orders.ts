import 'server-only';
import { desc, eq, ilike, inArray, or } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { orders, refunds, subscriptions } from '../../db/schema';
import { DomainError, notFound } from '../../errors';
import { paymentProvider } from '../../providers/payments';
import { cancelSubscriptions, consentRecordView, refundOrder, subscriptionConsentsOfOrders } from '../billing';
import { withdrawals } from '../../db/schema/withdrawals';
import type { OperatorView } from './types';
import { audit } from './audit';
import { parseE164 } from '../../../lib/contracts/e164';
import { asInternational } from '../../../lib/contracts/ops';
import type { E164 } from '../../../lib/contracts/phone';

// The console's order desk: search, refund, cancel.

/**
 * The E.164 form of a searched number, when the query reads as one (digits and separators only), read as the console
 * reads a number (`asInternational`, lib/contracts/ops.ts) by the API's parser; else null (then it is no number).
 */
function phoneOf(query: string): E164 | null {
  const digits = query.replace(/[\s().-]/g, '');
  if (!/^\+?\d{6,15}$/.test(digits)) return null;
  const parsed = parseE164(asInternational(digits));
  return parsed.ok ? parsed.value : null;
}

/** What the order desk shows of an order's subscriptions, refund and withdrawal (`OpsOrder`, lib/contracts/ops.ts). */
const SUBSCRIPTION_COLUMNS = {
  id: subscriptions.id,
  orderId: subscriptions.orderId,
  status: subscriptions.status,
  currentPeriodEnd: subscriptions.currentPeriodEnd,
  cancelAt: subscriptions.cancelAt,
  canceledAt: subscriptions.canceledAt,
};
const REFUND_COLUMNS = { orderId: refunds.orderId, amountMinor: refunds.amountMinor, createdAt: refunds.createdAt };
const WITHDRAWAL_COLUMNS = {
  orderId: withdrawals.orderId,
  withdrawnAt: withdrawals.withdrawnAt,
  via: withdrawals.via,
  ip: withdrawals.ip,
  userAgent: withdrawals.userAgent,
  timeZone: withdrawals.timeZone,
  rule: withdrawals.rule,
  paidMinor: withdrawals.paidMinor,
  refundMinor: withdrawals.refundMinor,
};

/**
 * Orders matching `query`: an order code or reference (`CH-7K4M-2Q`, what a customer quotes; exact,
 * any case), an e-mail (part of it, case-insensitive) or a phone
 * number (E.164, with or without `+`), newest first, at most 50, each with its subscriptions and refund. An empty
 * query lists the newest orders. Amounts in minor units. A withdrawal from the contract (services/billing/withdrawals.ts) is
 * shown with who made it, when, from where and the refund (`withdrawal`, null when none); the buyer's consent to the
 * subscription at Pay with the exact terms shown (`subscriptionConsent`, services/billing/subscription-consents.ts).
 * Only the first 200 characters of `query` are searched. Shaped as `OpsOrder` (lib/contracts/ops.ts) once serialised.
 */
export async function searchOrders(db: Db, query: string) {
  const q = query.slice(0, 200).trim();
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
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const [subs, refundRows, withdrawalRows, consentRows] = await Promise.all([
    db.select(SUBSCRIPTION_COLUMNS).from(subscriptions).where(inArray(subscriptions.orderId, ids)),
    db.select(REFUND_COLUMNS).from(refunds).where(inArray(refunds.orderId, ids)),
    db.select(WITHDRAWAL_COLUMNS).from(withdrawals).where(inArray(withdrawals.orderId, ids)),
    subscriptionConsentsOfOrders(db, ids),
  ]);
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
 * and writes `order.refund` to the audit log. Unknown order: 404. Returns the refund and whether it repeats one.
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
  if (!result.cancelAt.length) throw new DomainError('conflict', 'Api.nothingToCancel');
  await audit(db, operator, 'subscription.cancel', { type: 'order', id: order.id }, reason, {
    code: order.code,
    cancelAt: result.cancelAt.map((d) => d.toISOString()),
  });
  return result;
}
