import 'server-only';
import { createHash } from 'node:crypto';
import { desc, eq, inArray, lt, sql } from 'drizzle-orm';
import type { ConsentRecord } from '../../../lib/contracts/billing';
import type { Db, Tx } from '../../db/client';
import { orders, subscriptionConsents, type SubscriptionConsent } from '../../db/schema';
import { languageOf } from '../../../i18n/routing';
import { messagesOf, translate } from '../../i18n';
import { formatMoney } from '../money';

/**
 * Proof of the buyer's consent to the subscription (table `subscription_consents`; California's automatic-renewal law
 * as amended by AB 2863 asks the business to keep it; docs/features.md "Payments and subscriptions"). Written in the transaction
 * that creates the order, when the buyer presses Pay on the pay step, with the exact terms that step showed rendered
 * again on the server from the same catalogue texts and prices, so the record does not depend on what a client sends.
 */

/** What the pay step showed, with the figures it showed them with (minor units of `currency`). */
export type TermsShown = {
  locale: string;
  trialMinor: number;
  monthlyMinor: number;
  currency: string;
  geolocations: number;
  descriptor: string;
  /** How the buyer chose to pay: the statement line speaks of the card, or of the wallet (`Pay.descriptorWallet`). */
  method?: 'card' | 'wallet';
  startNow: boolean;
};

/**
 * The terms the pay step shows, as text, one statement a line, in the order's language (next-intl's ICU formatter
 * over messages/*.json: the box ticked in the locate box, `Pay.priceLine`, `Pay.includes`, `Pay.descriptor` (or
 * `Pay.descriptorWallet` for a wallet payment, as the pay step shows it),
 * `Pay.startNow` when the buyer asked to start at once, and the button `Pay.pay`), and the version of the terms of
 * use they accept: `terms-of-use@` + the first 12 hex digits of the SHA-256 of that locale's terms-of-use text.
 */
export function renderTermsShown(shown: TermsShown): { text: string; version: string } {
  const lang = languageOf(shown.locale);
  const messages = messagesOf(lang);
  const t = (key: string, values?: Record<string, string | number>) => translate(lang, key, values);
  const money = (minor: number) => formatMoney(minor, shown.currency, lang);
  const box = ['LocateBox.termsBefore', 'LocateBox.terms', 'LocateBox.and', 'LocateBox.privacy']
    .map((key) => t(key))
    .join(' ');
  const lines = [
    box,
    t('Pay.priceLine', { trial: money(shown.trialMinor), monthly: money(shown.monthlyMinor) }),
    t('Pay.includes', { count: shown.geolocations }),
    t(shown.method === 'wallet' ? 'Pay.descriptorWallet' : 'Pay.descriptor', { descriptor: shown.descriptor }),
    ...(shown.startNow ? [t('Pay.startNow')] : []),
    t('Pay.pay', { amount: money(shown.trialMinor) }),
  ];
  const terms = JSON.stringify((messages as { Legal?: { termsOfUse?: unknown } }).Legal?.termsOfUse ?? null);
  return { text: lines.join('\n'), version: `terms-of-use@${sha256(terms).slice(0, 12)}` };
}

function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/**
 * Records the consent of `email` to the subscription of order `orderId` with the terms shown, in `tx` (the order's
 * own insert). `ip` and `userAgent` are the client's, as the API saw them (null when unknown). Returns the row.
 */
export async function recordSubscriptionConsent(
  tx: Tx | Db,
  input: TermsShown & { orderId: string; email: string; ip: string | null; userAgent: string | null },
): Promise<SubscriptionConsent> {
  const { text, version } = renderTermsShown(input);
  const [row] = await tx
    .insert(subscriptionConsents)
    .values({
      orderId: input.orderId,
      userEmail: input.email,
      locale: input.locale,
      termsVersion: version,
      termsText: text,
      termsHash: sha256(text),
      trialPriceMinor: input.trialMinor,
      monthlyPriceMinor: input.monthlyMinor,
      currency: input.currency,
      startNow: input.startNow,
      ip: input.ip,
      userAgent: input.userAgent?.slice(0, 512) ?? null,
    })
    .returning();
  return row;
}

/** The consent records of the orders of account `userId` (its own orders only), newest first. */
export async function subscriptionConsentsOf(db: Db, userId: string): Promise<SubscriptionConsent[]> {
  const rows = await db
    .select({ record: subscriptionConsents })
    .from(subscriptionConsents)
    .innerJoin(orders, eq(orders.id, subscriptionConsents.orderId))
    .where(eq(orders.userId, userId))
    .orderBy(desc(subscriptionConsents.createdAt));
  return rows.map((r) => r.record);
}

/** The consent records of the orders `orderIds`, for the operators' console; newest first. */
export async function subscriptionConsentsOfOrders(db: Db, orderIds: string[]): Promise<SubscriptionConsent[]> {
  if (!orderIds.length) return [];
  return db
    .select()
    .from(subscriptionConsents)
    .where(inArray(subscriptionConsents.orderId, orderIds))
    .orderBy(desc(subscriptionConsents.createdAt));
}

/**
 * Deletes the records older than `days` (SUBSCRIPTION_CONSENT_RETENTION_DAYS, 3 years by default: California's
 * limitation period for these claims) under the trigger's purge setting, in one transaction. Returns how many.
 */
export async function purgeSubscriptionConsents(db: Db, days: number, now = new Date()): Promise<number> {
  const before = new Date(now.getTime() - days * 86_400_000);
  return db.transaction(async (tx) => {
    await tx.execute(sql`set local app.subscription_consent_purge = 'on'`);
    const gone = await tx
      .delete(subscriptionConsents)
      .where(lt(subscriptionConsents.createdAt, before))
      .returning({ id: subscriptionConsents.id });
    return gone.length;
  });
}

/** A record as the buyer downloads it and the console shows it (no internal ids beyond the order's). */
export function consentRecordView(row: SubscriptionConsent): ConsentRecord {
  return {
    orderId: row.orderId,
    email: row.userEmail,
    locale: row.locale,
    termsVersion: row.termsVersion,
    termsText: row.termsText,
    termsSha256: row.termsHash,
    trialPriceMinor: row.trialPriceMinor,
    monthlyPriceMinor: row.monthlyPriceMinor,
    currency: row.currency,
    startNow: row.startNow,
    ip: row.ip,
    userAgent: row.userAgent,
    agreedAt: row.createdAt.toISOString(),
  };
}
