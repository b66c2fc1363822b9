import 'server-only';
import { OpenAPIHono, createRoute, z } from '@hono/zod-openapi';
import { LIMITS, PATTERNS } from '../../../lib/validation/schemas';
import { getDb } from '../../db/client';
import { enqueueAfterCommit } from '../../jobs/boss';
import { luhnValid } from '../../providers/sandbox-payments';
import { formatMoney } from '../../services/money';
import { createOrder, findOrder, paySandboxOrder } from '../../services/orders';
import { PhoneParseError } from '../../services/phone-info';
import type { AppEnv } from '../context';
import { ApiError, ErrorCode, notFound } from '../errors';
import { setSessionCookies } from '../session-cookies';
import { created, envelope, errorEnvelope, errorResponses, jsonResponse, ok } from '../respond';
import { bodyOf, formBoolean, readBody } from '../validation';

const orderBody = z.object({
  email: z
    .string('Validation.emailRequired')
    .trim()
    .min(1, 'Validation.emailRequired')
    .max(LIMITS.emailMax, 'Validation.emailInvalid')
    .pipe(z.email('Validation.emailInvalid')),
  phone: z
    .string('Validation.phoneRequired')
    .trim()
    .min(1, 'Validation.phoneRequired')
    .max(LIMITS.phoneMax, 'Validation.phoneTooLong'),
  country: z
    .string()
    .regex(/^[A-Za-z]{2}$/)
    .optional(),
  locale: z.enum(['en', 'id', 'es', 'en-PH']).default('en'),
  terms: formBoolean.refine((v) => v, 'Validation.termsRequired'),
});

const orderView = z.object({
  code: z.string(),
  status: z.string(),
  email: z.string(),
  phone: z.string(),
  amountMinor: z.number().int(),
  currency: z.string(),
  amount: z.string(),
  monthlyAmount: z.string(),
  trialHours: z.number().int(),
});

// POST /api_f/v1/portal/order - create an order and start payment
const createOrderRoute = createRoute({
  method: 'post',
  path: '/portal/order',
  summary: 'Create an order (e-mail, phone, accepted terms); the price comes from price_setups, never the client',
  request: { body: bodyOf(orderBody) },
  responses: { 201: jsonResponse(envelope(orderView), 'Order created'), ...errorResponses },
});

// GET /api_f/v1/portal/order/{code} - an order by its public code, for the checkout page
const getOrderRoute = createRoute({
  method: 'get',
  path: '/portal/order/{code}',
  summary: 'Order summary by its unguessable public code',
  request: { params: z.object({ code: z.string().min(10).max(64) }) },
  responses: { 200: jsonResponse(envelope(orderView), 'Order'), 404: jsonResponse(errorEnvelope, 'Unknown') },
});

const payBody = z.object({
  cardNumber: z
    .string()
    .regex(PATTERNS.cardNumber, 'Validation.cardNumber')
    .transform((v) => v.replace(/ /g, ''))
    .refine(luhnValid, 'Validation.cardNumber'),
  expiry: z.string().regex(PATTERNS.expiry, 'Validation.cardExpiry').refine(notExpired, 'Validation.cardExpiry'),
  cvc: z.string().regex(PATTERNS.cvc, 'Validation.cardCvc'),
  zip: z.string().trim().regex(PATTERNS.zip, 'Validation.zip'),
});

// POST /api_f/v1/portal/order/{code}/sandboxPay - pay an order on the sandbox checkout (Stripe test-card semantics)
const payRoute = createRoute({
  method: 'post',
  path: '/portal/order/{code}/sandboxPay',
  summary: 'Sandbox card payment: 4242… pays, 4000…0002 declines (402), 4000…9995 insufficient funds (402)',
  request: { params: z.object({ code: z.string().min(10).max(64) }), body: bodyOf(payBody) },
  responses: {
    200: jsonResponse(
      envelope(z.object({ status: z.literal('paid'), email: z.string(), phone: z.string() })),
      'Paid; session cookie set',
    ),
    402: jsonResponse(errorEnvelope, 'Declined'),
    404: jsonResponse(errorEnvelope, 'Unknown order'),
    409: jsonResponse(errorEnvelope, 'Order not payable'),
    ...errorResponses,
  },
});

// GET /api_f/v1/portal/user/checkRegister/{code} - order status by code, for /paystatus
const statusRoute = createRoute({
  method: 'get',
  path: '/portal/user/checkRegister/{code}',
  summary: 'Payment status of an order: pending, paid, failed, …',
  request: { params: z.object({ code: z.string().min(10).max(64) }) },
  responses: {
    200: jsonResponse(envelope(z.object({ status: z.string() })), 'Status'),
    404: jsonResponse(errorEnvelope, 'Unknown'),
  },
});

function notExpired(expiry: string): boolean {
  const m = PATTERNS.expiry.exec(expiry);
  if (!m) return false;
  const [month, year] = [Number(expiry.slice(0, 2)), 2000 + Number(m[2])];
  const now = new Date();
  return year > now.getUTCFullYear() || (year === now.getUTCFullYear() && month >= now.getUTCMonth() + 1);
}

async function view(code: string, lang: string) {
  const row = await findOrder(await getDb(), code);
  if (!row) throw notFound();
  const { order, price } = row;
  return {
    code: order.code,
    status: order.status,
    email: order.email,
    phone: order.phoneE164,
    amountMinor: order.amountMinor,
    currency: order.currency,
    amount: formatMoney(order.amountMinor, order.currency, lang),
    monthlyAmount: formatMoney(price.monthlyPriceMinor, price.currency, lang),
    trialHours: price.trialHours,
  };
}

export const ordersApi = new OpenAPIHono<AppEnv>()
  .openapi(createOrderRoute, async (c) => {
    const body = readBody(c, orderBody);
    try {
      const { order } = await createOrder(await getDb(), body);
      return created(c, await view(order.code, c.get('lang')));
    } catch (error) {
      if (error instanceof PhoneParseError) {
        throw new ApiError(400, ErrorCode.badRequest, 'Validation.phoneInvalid', {}, { kind: error.kind });
      }
      throw error;
    }
  })
  .openapi(getOrderRoute, async (c) => ok(c, await view(c.req.valid('param').code, c.get('lang'))))
  .openapi(statusRoute, async (c) => {
    const row = await findOrder(await getDb(), c.req.valid('param').code);
    if (!row) throw notFound();
    return ok(c, { status: row.order.status });
  })
  .openapi(payRoute, async (c) => {
    const { code } = c.req.valid('param');
    const body = readBody(c, payBody);
    const result = await paySandboxOrder(await getDb(), code, body.cardNumber, {
      ip: c.get('clientIp'),
      userAgent: c.req.header('user-agent') ?? null,
    });
    if (result.kind === 'not_found') throw notFound();
    if (result.kind === 'not_payable') throw new ApiError(409, ErrorCode.conflict, 'Api.orderNotPayable');
    if (result.kind === 'declined') {
      throw new ApiError(402, ErrorCode.paymentDeclined, 'Api.declined', {}, { reason: result.reason });
    }
    setSessionCookies(c, result.token, { email: result.email, paymentCount: result.paymentCount });
    await enqueueAfterCommit(result.outboxIds);
    return ok(c, { status: 'paid' as const, email: result.email, phone: result.phone });
  });
