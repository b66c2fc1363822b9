import 'server-only';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { orders, priceOffers, priceSetups, type Order } from '../../db/schema';
import { env } from '../../env';
import { paymentProvider } from '../../providers/payments';
import { DomainError, notFound } from '../../errors';
import type { EmbeddedCheckout, OrderView } from '../../../lib/contracts/orders';
import { pricePlan } from './prices';
import { formatMoney } from '../money';
import { buyerOrderState } from '../../../lib/order-machine';

// What the checkout page, the pay status page and Billing read of an order, by its public code (docs/rules.md
// "Entities", the payment texts; lib/contracts/orders.ts): the order with its price, offer, consent SMS and request,
// the view the pages show, and the check that an order is the caller's (a foreign one answers 404).

/**
 * What the checkout page mounts Stripe's Embedded Checkout with, for the order `code`: the open Checkout Session's
 * client secret and the publishable key (lib/contracts/orders.ts `embeddedCheckoutSchema`). Stripe is asked outside
 * any transaction (docs/decisions/0009-no-network-call-inside-a-transaction.md). Throws 404 for an unknown order or one
 * not paid through Stripe, and 409 (reason `not_payable`) once the order is no longer pending or its session closed.
 */
export async function embeddedCheckout(db: Db, code: string): Promise<EmbeddedCheckout> {
  const row = await findOrder(db, code);
  const publishableKey = env().STRIPE_PUBLISHABLE_KEY;
  if (!row || row.order.provider !== 'stripe' || !publishableKey) throw notFound();
  const clientSecret =
    row.order.status === 'pending' ? await paymentProvider('stripe').checkoutSecret(row.order) : null;
  if (!clientSecret) throw new DomainError('conflict', 'Api.orderNotPayable', {}, { reason: 'not_payable' });
  return { clientSecret, publishableKey };
}

/** An order with its price setup and offer, by public code; null when unknown. */
export async function findOrder(db: Db, code: string) {
  const [row] = await db
    .select({
      order: orders,
      price: priceSetups,
      offer: priceOffers,
      // The consent SMS of the order's request: `failed` when it was refused or not delivered.
      smsStatus: sql<
        'queued' | 'sending' | 'sent' | 'delivered' | 'failed' | null
      >`(select m.status from outbound_messages m join location_requests r on r.id = m.location_request_id where r.order_id = ${orders.id} order by m.created_at desc limit 1)`,
      // The location request the payment made (the status page's one button opens its map); null before payment.
      requestId: sql<
        string | null
      >`(select r.id from location_requests r where r.order_id = ${orders.id} order by r.created_at limit 1)`,
      // Whether the order's account still signs in with the e-mailed temporary password (a new account, not yet
      // changed): the status page then says where the password is; an existing account's buyer got none.
      temporaryPassword: sql<boolean>`coalesce((select u.temp_password_expires_at is not null from users u where u.id = ${orders.userId}), false)`,
    })
    .from(orders)
    .innerJoin(priceSetups, eq(priceSetups.id, orders.priceSetupId))
    .leftJoin(priceOffers, eq(priceOffers.id, orders.offerId))
    .where(eq(orders.code, code))
    .limit(1);
  return row ?? null;
}

/**
 * What the pay page, pay status and e-mails show about an order (docs/rules.md#entities payment texts): phone, e-mail, support
 * e-mail, product name, price, trial price, payment method, card (scheme and last four digits), billing descriptor, the
 * order's reference (`CH-7K4M-2Q`, what people read; `code` stays the URL key), when it was paid;
 * the consent SMS's status (`smsStatus`: null before payment, `failed` when refused or undelivered); the location
 * request the payment made (`requestId`, null before; its map is the owner's account's only) and whether the account
 * still has the e-mailed temporary password (`temporaryPassword`).
 */
export function orderView(row: NonNullable<Awaited<ReturnType<typeof findOrder>>>, lang: string): OrderView {
  const { order, price } = row;
  const e = env();
  const plan = pricePlan(price, lang);
  return {
    code: order.code,
    reference: order.reference,
    status: buyerOrderState(order.status),
    email: order.email,
    phone: order.phoneE164,
    amountMinor: order.amountMinor,
    currency: order.currency,
    amount: formatMoney(order.amountMinor, order.currency, lang),
    listAmount: formatMoney(order.listPriceMinor ?? order.amountMinor, order.currency, lang),
    monthlyAmount: plan.monthlyText,
    trialHours: price.trialHours,
    geolocations: price.geolocationsPerPeriod,
    method: order.paymentMethod,
    // The column holds env().PAYMENT_PROVIDER at the time of the order (text in the database).
    provider: order.provider as OrderView['provider'],
    card: order.cardLast4,
    cardBrand: order.cardBrand,
    pendingAction: order.pendingAction,
    failureCode: order.failureCode,
    billingDescriptor: e.BILLING_DESCRIPTOR,
    supportEmail: e.SUPPORT_EMAIL,
    productName: e.NEXT_PUBLIC_PRODUCT_NAME,
    offerEndsAt: row.offer?.expiresAt?.toISOString() ?? null,
    paidAt: order.paidAt?.toISOString() ?? null,
    smsStatus: row.smsStatus,
    requestId: row.requestId,
    temporaryPassword: row.temporaryPassword,
  };
}

/** Whether the order belongs to `userId` (docs/rules.md#security: a foreign order answers 404). */
export async function ownedOrder(db: Db, code: string, userId: string): Promise<Order | null> {
  const [order] = await db
    .select()
    .from(orders)
    .where(and(eq(orders.code, code), eq(orders.userId, userId)));
  return order ?? null;
}
