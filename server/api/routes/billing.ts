import 'server-only';
import { OpenAPIHono, createRoute, z } from '@hono/zod-openapi';
import {
  billingViewSchema,
  cancelResultSchema,
  consentReceiptsSchema,
  consentRecordSchema,
  orderCodeBody,
  refundInfoSchema,
  refundResultSchema,
  userPropertySchema,
  type BillingView,
  type RefundInfo,
  type UserProperty,
} from '../../../lib/contracts/billing';
import { translate } from '../../i18n';
import { paymentProvider } from '../../providers/payments';
import { formatMoney } from '../../services/money';
import {
  billingFacts,
  billingOverview,
  cancelSubscriptions,
  consentRecordView,
  ownedOrder,
  refundCauses,
  refundCheck,
  refundOrder,
  refusalMessage,
  subscriptionConsentsOf,
  withdrawalContracts,
} from '../../services/billing';
import { consentReceiptsOf } from '../../services/consent-receipts';
import type { AppEnv } from '../context';
import { notFound } from '../errors';
import { requireUser } from '../middleware';
import { BAD_INPUT, SIGNED_OUT, envelope, fails, jsonResponse, ok } from '../respond';
import { bodyOf, readBody } from '../validation';

const authErrors = { ...SIGNED_OUT, 404: 'Unknown' } as const;

// GET /api_f/v1/admin/order/status - the subscriber's orders and subscriptions
const statusRoute = createRoute({
  method: 'get',
  path: '/admin/order/status',
  summary:
    "The caller's orders (newest first) and subscriptions with the next billing date (docs/rules.md#api order list)",
  middleware: [requireUser] as const,
  responses: { 200: jsonResponse(envelope(billingViewSchema), 'Billing'), ...fails(SIGNED_OUT) },
});

// POST /api_f/v1/admin/order/refundDetail - may this order be refunded, and how much
const refundDetailRoute = createRoute({
  method: 'post',
  path: '/admin/order/refundDetail',
  summary:
    "Refund details of one of the caller's orders: eligible within 14 days if no location was shared; a refusal after a share names what a withdrawal from the contract would still refund (services/billing/refunds.ts refusalOf)",
  middleware: [requireUser] as const,
  request: { body: bodyOf(orderCodeBody) },
  responses: { 200: jsonResponse(envelope(refundInfoSchema), 'Details'), ...fails({ ...authErrors, ...BAD_INPUT }) },
});

// POST /api_f/v1/admin/order/refund - refund one of the caller's orders
const refundRoute = createRoute({
  method: 'post',
  path: '/admin/order/refund',
  summary:
    'Refund an order (once; a second call answers the first refund). 409 with the reason when not allowed. Cards take 7 to 10 business days.',
  middleware: [requireUser] as const,
  request: { body: bodyOf(orderCodeBody) },
  responses: {
    200: jsonResponse(envelope(refundResultSchema), 'Refunded'),
    ...fails({ 409: 'Not refundable', ...authErrors, ...BAD_INPUT }),
  },
});

// PUT /api_f/v1/admin/user/cancelSubscribe - cancel at the next billing date
const cancelRoute = createRoute({
  method: 'put',
  path: '/admin/user/cancelSubscribe',
  summary:
    "Cancel the caller's subscriptions at their next billing date (docs/rules.md#states): access lasts until then, no further charge",
  middleware: [requireUser] as const,
  responses: {
    200: jsonResponse(envelope(cancelResultSchema), 'Cancelled (empty: nothing to cancel)'),
    ...fails(SIGNED_OUT),
  },
});

// GET /api_f/v1/other/user/property - transaction info for the help chat
const propertyRoute = createRoute({
  method: 'get',
  path: '/other/user/property',
  summary:
    "The caller's transaction info passed to the help chat (docs/rules.md#api): e-mail, payments, latest order and plan",
  middleware: [requireUser] as const,
  responses: { 200: jsonResponse(envelope(userPropertySchema), 'Property'), ...fails(SIGNED_OUT) },
});

// GET /api_f/v1/admin/user/consentReceipts - what the caller agreed to at Pay, for the receipt page
const receiptsRoute = createRoute({
  method: 'get',
  path: '/admin/user/consentReceipts',
  summary:
    "The caller's receipts of what they agreed to at Pay (/dashboard/billing/consent/): per order, its reference, the terms shown with their version and SHA-256, the prices as decimal money, the time, address and user agent; newest first",
  middleware: [requireUser] as const,
  responses: { 200: jsonResponse(envelope(consentReceiptsSchema), 'Receipts'), ...fails(SIGNED_OUT) },
});

// GET /api_f/v1/admin/user/consentReceipts/file - the same receipts as a file to keep
const receiptsFileRoute = createRoute({
  method: 'get',
  path: '/admin/user/consentReceipts/file',
  summary:
    "The caller's receipts (as GET /admin/user/consentReceipts) as a download: the JSON array itself, without the API's envelope, a file to keep rather than an answer to read (Content-Disposition: attachment)",
  middleware: [requireUser] as const,
  responses: { 200: jsonResponse(consentReceiptsSchema, 'The file'), ...fails(SIGNED_OUT) },
});

// GET /api_f/v1/admin/user/subscriptionConsents - the caller's proof of consent to their subscriptions, as a file
const consentsRoute = createRoute({
  method: 'get',
  path: '/admin/user/subscriptionConsents',
  deprecated: true,
  summary:
    "Deprecated for the consent receipts (GET /admin/user/consentReceipts), which name the order by its reference and give prices as money. The caller's records of consent to the subscription (the terms shown at Pay, their SHA-256 and version, prices in minor units, time, address, user agent), newest first, sent as a download (Content-Disposition: attachment)",
  middleware: [requireUser] as const,
  responses: { 200: jsonResponse(envelope(z.array(consentRecordSchema)), 'Records'), ...fails(SIGNED_OUT) },
});

export const billingApi = new OpenAPIHono<AppEnv>()
  .openapi(receiptsRoute, async (c) => {
    c.header('Cache-Control', 'no-store');
    return ok(c, await consentReceiptsOf(await c.var.db(), c.get('user')!.id));
  })
  .openapi(receiptsFileRoute, async (c) => {
    const receipts = await consentReceiptsOf(await c.var.db(), c.get('user')!.id);
    c.header('Content-Disposition', 'attachment; filename="consent-receipts.json"');
    c.header('Cache-Control', 'no-store');
    return c.json(receipts, 200);
  })
  .openapi(consentsRoute, async (c) => {
    const records = await subscriptionConsentsOf(await c.var.db(), c.get('user')!.id);
    c.header('Content-Disposition', 'attachment; filename="subscription-consent-records.json"');
    c.header('Cache-Control', 'no-store');
    return ok(c, records.map(consentRecordView));
  })
  .openapi(statusRoute, async (c) => {
    const db = await c.var.db();
    const userId = c.get('user')!.id;
    const lang = c.get('lang');
    const { orders: orderRows, subscriptions: subscriptionRows } = await billingOverview(db, userId);
    // Why each refunded order was refunded, which Billing states beside it.
    const causes = await refundCauses(
      db,
      orderRows.filter((o) => o.status === 'refunded').map((o) => o.id),
    );
    // Where each contract stands for a withdrawal (services/billing/withdrawal-links.ts, the page /withdraw reads the same).
    const contracts = new Map(
      (await withdrawalContracts(db, userId, lang, new Date())).map((contract) => [contract.code, contract]),
    );
    return ok(c, {
      orders: orderRows.map((o) => ({
        code: o.code,
        reference: o.reference,
        phone: o.phoneE164,
        status: o.status,
        amount: formatMoney(o.amountMinor, o.currency, lang),
        amountMinor: o.amountMinor,
        currency: o.currency,
        method: o.paymentMethod,
        card: o.cardLast4,
        cardBrand: o.cardBrand,
        createdAt: o.createdAt.toISOString(),
        paidAt: o.paidAt?.toISOString() ?? null,
        refundReason: causes.get(o.id) ?? null,
        withdrawable: contracts.get(o.code)?.state === 'open',
        withdrawn: contracts.get(o.code)?.withdrawal ?? null,
      })),
      subscriptions: subscriptionRows.map(({ sub, price, code }) => ({
        status: sub.status,
        currentPeriodEnd: sub.currentPeriodEnd.toISOString(),
        cancelAt: sub.cancelAt?.toISOString() ?? null,
        nextBillingAt:
          sub.cancelAt || sub.status === 'canceled'
            ? null
            : ((sub.status === 'past_due' ? sub.nextRetryAt : sub.currentPeriodEnd)?.toISOString() ?? null),
        monthlyAmount: formatMoney(price.monthlyPriceMinor, price.currency, lang),
        geolocations: price.geolocationsPerPeriod,
        orderCode: code,
      })),
    } satisfies BillingView);
  })
  .openapi(refundDetailRoute, async (c) => {
    const { code } = readBody(c, orderCodeBody);
    const db = await c.var.db();
    const order = await ownedOrder(db, code, c.get('user')!.id);
    if (!order) throw notFound();
    const check = await refundCheck(db, order, new Date());
    return ok(c, {
      eligible: check.reason === 'eligible',
      reason: check.reason,
      amount: formatMoney(check.amountMinor, check.currency, c.get('lang')),
      amountMinor: check.amountMinor,
      deadline: check.deadline?.toISOString() ?? null,
      businessDays: '7-10',
      method: order.paymentMethod,
      message: refusalMessage(c.get('lang'), check),
    } satisfies RefundInfo);
  })
  .openapi(refundRoute, async (c) => {
    const { code } = readBody(c, orderCodeBody);
    const db = await c.var.db();
    const result = await refundOrder(db, c.get('user')!.id, code, c.get('lang'));
    const amount = formatMoney(result.refund.amountMinor, result.refund.currency, c.get('lang'));
    // The text says where the money goes: the card (7 to 10 business days) or the wallet paid with.
    const wallet = (await ownedOrder(db, code, c.get('user')!.id))?.paymentMethod === 'wallet';
    const message = translate(c.get('lang'), wallet ? 'Api.refundedWallet' : 'Api.refunded', { amount });
    return ok(c, { amount, repeated: result.repeated }, message);
  })
  .openapi(cancelRoute, async (c) => {
    const result = await cancelSubscriptions(await c.var.db(), c.get('user')!.id, (sub) =>
      paymentProvider(sub.provider).cancelAtPeriodEnd(sub),
    );
    return ok(c, { cancelAt: result.cancelAt.map((d) => d.toISOString()) });
  })
  .openapi(propertyRoute, async (c) => {
    const db = await c.var.db();
    const user = c.get('user')!;
    const { paymentCount, lastOrder: last, subscriptionStatus } = await billingFacts(db, user.id);
    return ok(c, {
      email: user.email,
      paymentCount,
      subscriptionStatus,
      lastOrder: last?.code ?? null,
      lastAmount: last ? formatMoney(last.amountMinor, last.currency, c.get('lang')) : null,
      lastPaidAt: last?.paidAt?.toISOString() ?? null,
    } satisfies UserProperty);
  });
