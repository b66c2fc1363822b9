import 'server-only';
import { desc, eq } from 'drizzle-orm';
import type { ConsentReceipt } from '../../lib/contracts/billing';
import type { Db } from '../db/client';
import { orders, subscriptionConsents, type SubscriptionConsent } from '../db/schema';
import { decimalAmount } from './money';

/**
 * The buyer's receipts of what they agreed to at Pay: the records of consent to the subscription
 * (services/billing/subscription-consents.ts writes them, append-only) as the buyer reads them on `/dashboard/billing/consent/`
 * and downloads them: named by the order's reference (docs/rules.md#entities: people read an order by its reference),
 * never by the record's or the order's internal id, with prices as decimal money (lib/contracts/billing.ts
 * `consentReceiptSchema`).
 */

/** One stored record as a receipt, with `reference`, its order's reference. */
export function consentReceiptOf(row: SubscriptionConsent, reference: string): ConsentReceipt {
  return {
    orderReference: reference,
    email: row.userEmail,
    agreedAt: row.createdAt.toISOString(),
    locale: row.locale,
    terms: { version: row.termsVersion, text: row.termsText, sha256: row.termsHash },
    trialPrice: { amount: decimalAmount(row.trialPriceMinor, row.currency), currency: row.currency },
    monthlyPrice: { amount: decimalAmount(row.monthlyPriceMinor, row.currency), currency: row.currency },
    startNow: row.startNow,
    ip: row.ip,
    userAgent: row.userAgent,
  };
}

/** The receipts of the orders of account `userId` (its own orders only), newest first. */
export async function consentReceiptsOf(db: Db, userId: string): Promise<ConsentReceipt[]> {
  const rows = await db
    .select({ record: subscriptionConsents, reference: orders.reference })
    .from(subscriptionConsents)
    .innerJoin(orders, eq(orders.id, subscriptionConsents.orderId))
    .where(eq(orders.userId, userId))
    .orderBy(desc(subscriptionConsents.createdAt));
  return rows.map((r) => consentReceiptOf(r.record, r.reference));
}
