import 'server-only';
import { OpenAPIHono, createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { PATTERNS } from '../../../lib/validation/schemas';
import { luhnValid } from '../../providers/sandbox-payments';
import {
  type ClientMeta,
  completeSandbox3ds,
  completeSandboxWallet,
  emailRegistered,
  findOrder,
  type PayResult,
  paySandboxCard,
} from '../../services/billing';
import type { AppEnv, Db } from '../context';
import { ApiError, ErrorCode, notFound } from '../errors';
import { setBuyerCookies } from '../session-cookies';
import { BAD_INPUT, envelope, fails, jsonResponse, ok } from '../respond';
import { orderCodeParams, sandboxApproveBody, sandboxPaidSchema } from '../../../lib/contracts/orders';
import { bodyOf, readBody } from '../validation';

const params = orderCodeParams;

const cardBody = z.object({
  cardNumber: z
    .string()
    .regex(PATTERNS.cardNumber, 'Validation.cardNumber')
    .transform((v) => v.replace(/ /g, ''))
    .refine(luhnValid, 'Validation.cardNumber'),
  expiry: z.string().regex(PATTERNS.expiry, 'Validation.cardExpiry').refine(notExpired, 'Validation.cardExpiry'),
  cvc: z.string().regex(PATTERNS.cvc, 'Validation.cardCvc'),
  zip: z.string().trim().regex(PATTERNS.zip, 'Validation.zip'),
});
const outcomes = {
  200: jsonResponse(envelope(sandboxPaidSchema), 'Paid (session cookie set) or a 3-D Secure step is required'),
  ...fails({
    ...BAD_INPUT,
    402: 'Declined; detail.status failed (retry) or canceled (insufficient funds)',
    404: 'Unknown order',
    409: 'Order not payable this way',
  }),
};

// POST /api_f/v1/portal/order/{code}/sandboxPay - pay on the sandbox checkout (Stripe test-card semantics)
const payRoute = createRoute({
  method: 'post',
  path: '/portal/order/{code}/sandboxPay',
  summary:
    'Sandbox card payment: 4242… pays; 4000…0002 declines (402, retry); 4000…9995 insufficient funds (402, order canceled); 4000…0341 pays, renewals fail; 4000 0027 6000 3184 asks for 3-D Secure',
  request: { params, body: bodyOf(cardBody) },
  responses: outcomes,
});

// POST /api_f/v1/portal/order/{code}/sandbox3ds - complete or abandon the sandbox 3-D Secure step
const threeDsRoute = createRoute({
  method: 'post',
  path: '/portal/order/{code}/sandbox3ds',
  summary: 'Sandbox 3-D Secure challenge: approve=true pays, approve=false fails the authentication (402)',
  request: { params, body: bodyOf(sandboxApproveBody) },
  responses: outcomes,
});

// POST /api_f/v1/portal/order/{code}/sandboxWallet - the sandbox wallet's answer (redirect flow)
const walletRoute = createRoute({
  method: 'post',
  path: '/portal/order/{code}/sandboxWallet',
  summary: 'Sandbox wallet: approve=true pays; approve=false cancels the order (402 with detail.status canceled)',
  request: { params, body: bodyOf(sandboxApproveBody) },
  responses: outcomes,
});

function notExpired(expiry: string): boolean {
  const m = PATTERNS.expiry.exec(expiry);
  if (!m) return false;
  const [month, year] = [Number(expiry.slice(0, 2)), 2000 + Number(m[2])];
  const now = new Date();
  return year > now.getUTCFullYear() || (year === now.getUTCFullYear() && month >= now.getUTCMonth() + 1);
}

/** Only sandbox orders are paid here; a Stripe order is paid at Stripe. */
async function sandboxOrder(db: Db, orderCode: string) {
  const row = await findOrder(db, orderCode);
  if (!row) throw notFound();
  if (row.order.provider !== 'sandbox') throw new ApiError(409, ErrorCode.conflict, 'Api.orderNotPayable');
}

function meta(c: Context<AppEnv>): ClientMeta {
  return { ip: c.get('clientIp'), userAgent: c.req.header('user-agent') ?? null };
}

/**
 * The HTTP answer for a payment outcome. A payment that created the account signs the payer in (session cookies); one
 * added to an existing account (the signed-in buyer's) sets no cookie. 409 `Api.emailRegistered` when
 * the e-mail became an account after the order was made (nothing is charged).
 */
async function answer(c: Context<AppEnv>, result: PayResult, orderCode: string) {
  if (result.kind === 'not_found') throw notFound();
  if (result.kind === 'email_registered') throw emailRegistered();
  if (result.kind === 'not_payable') throw new ApiError(409, ErrorCode.conflict, 'Api.orderNotPayable');
  if (result.kind === 'declined') {
    const key = result.reason === 'wallet_canceled' ? 'Api.walletCanceled' : 'Api.declined';
    throw new ApiError(402, ErrorCode.paymentDeclined, key, {}, { reason: result.reason, status: result.status });
  }
  if (result.kind === 'requires_action') {
    const row = (await findOrder(await c.var.db(), orderCode))!;
    return ok(c, { status: 'requires_action' as const, email: row.order.email, phone: row.order.phoneE164 });
  }
  if (result.token) setBuyerCookies(c, result.token, { email: result.email, paymentCount: result.paymentCount });
  return ok(c, { status: 'paid' as const, email: result.email, phone: result.phone });
}

export const sandboxPayApi = new OpenAPIHono<AppEnv>()
  .openapi(payRoute, async (c) => {
    const { code } = c.req.valid('param');
    const body = readBody(c, cardBody);
    await sandboxOrder(await c.var.db(), code);
    return answer(c, await paySandboxCard(await c.var.db(), code, body.cardNumber, meta(c)), code);
  })
  .openapi(threeDsRoute, async (c) => {
    const { code } = c.req.valid('param');
    const { approve } = readBody(c, sandboxApproveBody);
    await sandboxOrder(await c.var.db(), code);
    return answer(c, await completeSandbox3ds(await c.var.db(), code, approve, meta(c)), code);
  })
  .openapi(walletRoute, async (c) => {
    const { code } = c.req.valid('param');
    const { approve } = readBody(c, sandboxApproveBody);
    await sandboxOrder(await c.var.db(), code);
    return answer(c, await completeSandboxWallet(await c.var.db(), code, approve, meta(c)), code);
  });
