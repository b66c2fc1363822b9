import 'server-only';
import { OpenAPIHono, createRoute } from '@hono/zod-openapi';
import {
  createdOrderSchema,
  embeddedCheckoutSchema,
  offerBody,
  offerViewSchema,
  orderBody,
  orderCodeParams,
  orderViewSchema,
  pricePlanSchema,
  priceQuery,
} from '../../../lib/contracts/orders';
import { env } from '../../env';
import { completeCheckoutOnReturn } from '../../payments/stripe-sync';
import {
  buyerKey,
  createOrder,
  displayedPricePlan,
  embeddedCheckout,
  findOrder,
  firstOrderStatus,
  orderView,
  preferredCurrency,
  pricePlan,
  priceSetup,
  showOffer,
} from '../../services/billing';
import { offerBrowserKey } from '../offer-browser-cookie';
import { consume, RateLimitedError } from '../../services/rate-limit';
import type { AppEnv, Db } from '../context';
import { notFound } from '../errors';
import { e164Of } from '../phone';
import { BAD_INPUT, created, envelope, errorEnvelope, fails, jsonResponse, ok } from '../respond';
import { attributionOf, bodyOf, readBody } from '../validation';

// GET /api_f/v1/portal/priceSetup - the price plan (docs/rules.md#entities)
const priceRoute = createRoute({
  method: 'get',
  path: '/portal/priceSetup',
  summary:
    'The price plan: trial price for 24 hours, monthly price, geolocations a month (minor units and texts). Read for display: a price changed in the database shows within 60 s.',
  request: { query: priceQuery },
  responses: { 200: jsonResponse(envelope(pricePlanSchema), 'Plan'), ...fails({ 404: 'Unknown plan' }) },
});

// POST /api_f/v1/portal/priceSetup/offer - the first-order discount for this buyer, if it is theirs (records it as shown)
const offerRoute = createRoute({
  method: 'post',
  path: '/portal/priceSetup/offer',
  summary:
    "The first-order discount for this e-mail and number: offered when this is the first order from this browser (the offer_browser cookie, set here when absent) and this address (no account yet, no discount had), once; no time limit. `offer` is null when the plan has no discount or the discount is not the buyer's (`firstOrder` says why). The price plan is the discounted one when `offer` is given. An order naming `offer.id` claims it.",
  request: { body: bodyOf(offerBody) },
  responses: { 200: jsonResponse(envelope(offerViewSchema), 'Offer'), ...fails(BAD_INPUT) },
});

// POST /api_f/v1/portal/order - create an order and start payment
const createOrderRoute = createRoute({
  method: 'post',
  path: '/portal/order',
  summary:
    'Create an order (e-mail, phone, requester name shown to the owner (2–40 characters, no links or numbers), 18+ and terms, plan, method card|wallet, optional offer and idempotency key). The price comes from price_setups; the answer names `next`, where the payer goes to pay. An e-mail that has an account answers 409 (reason email_registered) unless the caller is signed in as that account; then the order is attached to it.',
  request: { body: bodyOf(orderBody) },
  responses: {
    201: jsonResponse(envelope(createdOrderSchema), 'Order created'),
    409: jsonResponse(
      errorEnvelope,
      "The first-order discount asked for is not this order's (reason discount_used), or idempotency key used for another order",
    ),
    ...fails(BAD_INPUT),
  },
});

// GET /api_f/v1/portal/order/{code} - an order by its public code, for the checkout page
const getOrderRoute = createRoute({
  method: 'get',
  path: '/portal/order/{code}',
  summary: 'Order summary by its unguessable public code (payment texts of docs/rules.md#entities)',
  request: { params: orderCodeParams },
  responses: { 200: jsonResponse(envelope(orderViewSchema), 'Order'), ...fails({ 404: 'Unknown' }) },
});

// GET /api_f/v1/portal/user/checkRegister/{code} - order status by code, for /paystatus
const statusRoute = createRoute({
  method: 'get',
  path: '/portal/user/checkRegister/{code}',
  summary:
    'Payment status of an order (pending, paid, failed, canceled, refunded). With Stripe, a pending order whose Checkout Session is paid is completed here too (the return page may arrive before the webhook); Stripe is asked outside any database transaction, at most 30 times a minute per order. 120 calls a minute per IP (429 with Retry-After).',
  request: { params: orderCodeParams },
  responses: {
    200: jsonResponse(envelope(orderViewSchema), 'Status'),
    ...fails({ 404: 'Unknown', 429: 'Too many calls' }),
  },
});

// GET /api_f/v1/portal/order/{code}/embeddedCheckout - what the checkout page mounts Stripe's checkout with
const embeddedCheckoutRoute = createRoute({
  method: 'get',
  path: '/portal/order/{code}/embeddedCheckout',
  summary:
    "The client secret of a pending Stripe order's open Checkout Session and the publishable key, for Stripe's Embedded Checkout on our /checkout/ page (https://docs.stripe.com/payments/accept-a-payment?ui=embedded-form). 404 for an unknown order or one not paid through Stripe; 409 (reason not_payable) when the order is no longer pending or its session is no longer open. Counts against the 120 calls a minute per IP of the status call (429 with Retry-After).",
  request: { params: orderCodeParams },
  responses: {
    200: jsonResponse(envelope(embeddedCheckoutSchema), 'Client secret'),
    ...fails({ 404: 'Unknown, or not a Stripe order', 409: 'No longer payable', 429: 'Too many calls' }),
  },
});

async function viewOf(db: Db, orderCode: string, lang: string) {
  const row = await findOrder(db, orderCode);
  if (!row) throw notFound();
  return orderView(row, lang);
}

export const ordersApi = new OpenAPIHono<AppEnv>()
  .openapi(priceRoute, async (c) => {
    return ok(c, await displayedPricePlan(await c.var.db(), c.req.valid('query').plan, c.get('lang')));
  })
  .openapi(offerRoute, async (c) => {
    const body = readBody(c, offerBody);
    await consume('offersPerIp', c.get('clientIp') ?? 'unknown');
    const db = await c.var.db();
    const e164 = e164Of(body.phone, body.country);
    const price = await priceSetup(db, body.plan, preferredCurrency(c.get('lang')));
    const now = new Date();
    const firstOrder = await firstOrderStatus(db, offerBrowserKey(c), body.email, now);
    const offer = firstOrder === 'eligible' ? await showOffer(db, price, buyerKey(body.email, e164), now) : null;
    return ok(c, {
      offer: offer
        ? { id: offer.id, percentOff: offer.percentOff, expiresAt: null, rule: 'first_order' as const }
        : null,
      firstOrder,
      serverNow: now.toISOString(),
      plan: pricePlan(price, c.get('lang'), offer),
      billingDescriptor: env().BILLING_DESCRIPTOR,
    });
  })
  .openapi(createOrderRoute, async (c) => {
    const body = readBody(c, orderBody);
    await consume('ordersPerIp', c.get('clientIp') ?? 'unknown');
    const phone = e164Of(body.phone, body.country);
    const idempotencyKey = c.req.header('idempotency-key') ?? body.idempotencyKey;
    const attribution = attributionOf(c, body);
    const user = c.get('user');
    const buyer = user && !user.restricted ? user : null;
    const browser = offerBrowserKey(c);
    const { order, next } = await createOrder(await c.var.db(), {
      ...body,
      phone,
      idempotencyKey,
      attribution,
      buyer,
      browser,
      client: { ip: c.get('clientIp') ?? null, userAgent: c.req.header('user-agent') ?? null },
    });
    return created(c, { ...(await viewOf(await c.var.db(), order.code, c.get('lang'))), next });
  })
  .openapi(getOrderRoute, async (c) => ok(c, await viewOf(await c.var.db(), c.req.valid('param').code, c.get('lang'))))
  .openapi(embeddedCheckoutRoute, async (c) => {
    await consume('orderStatusPerIp', c.get('clientIp') ?? 'unknown');
    return ok(c, await embeddedCheckout(await c.var.db(), c.req.valid('param').code));
  })
  .openapi(statusRoute, async (c) => {
    await consume('orderStatusPerIp', c.get('clientIp') ?? 'unknown');
    const db = await c.var.db();
    const row = await findOrder(db, c.req.valid('param').code);
    if (!row) throw notFound();
    const { order } = row;
    if (order.provider === 'stripe' && order.status === 'pending' && order.providerSessionId) {
      const asked = await consume('stripeReturnChecksPerOrder', order.id).then(
        () => true,
        (error: unknown) => {
          if (error instanceof RateLimitedError) return false;
          throw error;
        },
      );
      if (asked) {
        const meta = { ip: c.get('clientIp'), userAgent: c.req.header('user-agent') ?? null };
        await completeCheckoutOnReturn(db, order.providerSessionId, meta);
      }
    }
    return ok(c, await viewOf(await c.var.db(), order.code, c.get('lang')));
  });
