import 'server-only';
import { desc, eq, sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import { orders, priceSetups, subscriptions, users } from '../db/schema';
import { env } from '../env';
import { sandboxCharge } from '../providers/sandbox-payments';
import { createSession } from './sessions';
import { generatePassword, randomToken } from './tokens';
import { parsePhone } from './phone-info';
import { formatMoney } from './money';
import { createLocationRequest, refusalError } from './requests';
import { smsRefusal } from './sms-guards';
import { queueEmail } from './outbox-queue';
import { TEMP_PASSWORD_TTL_MS, hashPassword } from './passwords';
import { prefixOf, type AppLocale } from '../../lib/routing/rules';

/** The default price setup (seeded by drizzle/0001); prices never come from the client. */
export async function defaultPrice(db: Db) {
  const [price] = await db.select().from(priceSetups).orderBy(desc(priceSetups.isDefault)).limit(1);
  if (!price) throw new Error('no price_setups row: run the migrations');
  return price;
}

/**
 * Creates an order for `email` to locate `phone` (parsed to E.164, national numbers against `country`), priced at
 * the default plan's trial price. Status `pending`: checkout starts at once. Throws PhoneParseError for a bad number
 * and ApiError (403/429) when the consent SMS could not be sent to it (sms-guards).
 */
export async function createOrder(db: Db, input: { email: string; phone: string; country?: string; locale: string }) {
  const number = parsePhone(input.phone, input.country);
  // Refuse before payment what could not be sent after it: opted-out numbers, countries, daily caps.
  const refusal = await smsRefusal(db, number.number);
  if (refusal) throw refusalError(refusal);
  const price = await defaultPrice(db);
  const [order] = await db
    .insert(orders)
    .values({
      code: randomToken(16),
      email: input.email.trim().toLowerCase(),
      phoneE164: number.number,
      locale: input.locale,
      priceSetupId: price.id,
      amountMinor: price.trialPriceMinor,
      currency: price.currency,
      provider: env().PAYMENT_PROVIDER,
      status: 'pending',
    })
    .returning();
  return { order, price };
}

/** An order with its price setup, by public code; null when unknown. */
export async function findOrder(db: Db, code: string) {
  const [row] = await db
    .select({ order: orders, price: priceSetups })
    .from(orders)
    .innerJoin(priceSetups, eq(priceSetups.id, orders.priceSetupId))
    .where(eq(orders.code, code))
    .limit(1);
  return row ?? null;
}

export type PayResult =
  | { kind: 'paid'; token: string; email: string; phone: string; paymentCount: number; outboxIds: string[] }
  | { kind: 'declined'; reason: string }
  | { kind: 'not_payable' }
  | { kind: 'not_found' };

/**
 * Pays order `code` with a sandbox card. A decline marks the order `failed` (it may be retried) and creates nothing.
 * A success runs `fulfilOrder` in the same transaction as the status change.
 */
export async function paySandboxOrder(
  db: Db,
  code: string,
  cardNumber: string,
  meta: { ip: string | null; userAgent: string | null },
): Promise<PayResult> {
  const charge = sandboxCharge(cardNumber);
  return db.transaction(async (tx) => {
    const [order] = await tx.select().from(orders).where(eq(orders.code, code)).for('update').limit(1);
    if (!order) return { kind: 'not_found' } as const;
    if (order.status !== 'pending' && order.status !== 'failed') return { kind: 'not_payable' } as const;
    if (charge.outcome === 'declined') {
      await tx.update(orders).set({ status: 'failed', failureCode: charge.reason }).where(eq(orders.id, order.id));
      return { kind: 'declined', reason: charge.reason } as const;
    }
    return fulfilOrder(tx, order, meta);
  });
}

/**
 * What a paid order causes, in one transaction (ISSUE 2 item 7): the order turns `paid`; the account is created
 * (or found) with the e-mail as login and a generated temporary password (argon2id hash stored, valid 7 days); a trialing
 * subscription; a session; the location request with its consent code (≥ 128 bits, stored hashed); and two outbox
 * rows: the buyer's credentials e-mail and the consent SMS.
 */
async function fulfilOrder(
  tx: Tx,
  order: typeof orders.$inferSelect,
  meta: { ip: string | null; userAgent: string | null },
): Promise<PayResult> {
  const e = env();
  const [price] = await tx.select().from(priceSetups).where(eq(priceSetups.id, order.priceSetupId));
  const password = generatePassword(16);
  const [user] = await tx
    .insert(users)
    .values({
      email: order.email,
      passwordHash: await hashPassword(password),
      tempPasswordExpiresAt: new Date(Date.now() + TEMP_PASSWORD_TTL_MS),
      paymentCount: 1,
    })
    .onConflictDoUpdate({ target: users.email, set: { paymentCount: sql`${users.paymentCount} + 1` } })
    .returning({ id: users.id, paymentCount: users.paymentCount, isNewUser: sql<boolean>`(xmax = 0)` });
  await tx.update(orders).set({ status: 'paid', paidAt: new Date(), userId: user.id }).where(eq(orders.id, order.id));
  await tx.insert(subscriptions).values({
    userId: user.id,
    orderId: order.id,
    status: 'trialing',
    currentPeriodEnd: new Date(Date.now() + price.trialHours * 3600_000),
  });
  const session = await createSession(tx, user.id, meta);

  const { smsId } = await createLocationRequest(tx, { userId: user.id, e164: order.phoneE164, orderId: order.id });

  const emailId = await queueEmail(tx, {
    to: order.email,
    template: 'order-credentials',
    locale: order.locale,
    params: {
      email: order.email,
      ...(user.isNewUser ? { password } : {}),
      order: order.code,
      phone: order.phoneE164,
      amount: formatMoney(order.amountMinor, order.currency, order.locale),
      monthly: formatMoney(price.monthlyPriceMinor, price.currency, order.locale),
      descriptor: e.BILLING_DESCRIPTOR,
      link: `${e.APP_ORIGIN}${prefixOf(order.locale as AppLocale)}/dashboard/locations/`,
    },
  });
  return {
    kind: 'paid',
    token: session.token,
    email: order.email,
    phone: order.phoneE164,
    paymentCount: user.paymentCount,
    outboxIds: [emailId, smsId],
  };
}
