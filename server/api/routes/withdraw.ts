import 'server-only';
import { OpenAPIHono, createRoute } from '@hono/zod-openapi';
import { emailKey } from '../../services/accounts';
import { consume } from '../../services/rate-limit';
import {
  acknowledgementView,
  requestWithdrawLink,
  withdraw,
  withdrawalContracts,
  withdrawLinkState,
} from '../../services/billing';
import type { AppEnv } from '../context';
import { requireUser } from '../middleware';
import { BAD_INPUT, SIGNED_OUT, envelope, fails, jsonResponse, ok } from '../respond';
import {
  accountConfirmBody,
  acknowledgementSchema,
  contractsSchema,
  linkConfirmBody,
  withdrawLinkSchema,
  withdrawTokenParams,
} from '../../../lib/contracts/withdraw';
import { linkRequestBody, linkSentSchema } from '../../../lib/contracts/billing';
import { bodyOf, readBody } from '../validation';

const refusals = { 404: 'Unknown order', 409: 'Refused: already_refunded or period_ended (detail.reason)' } as const;

// POST /api_f/v1/portal/withdraw/request - e-mail a withdrawal link (no sign-in)
const requestRoute = createRoute({
  method: 'post',
  path: '/portal/withdraw/request',
  summary:
    'Withdraw from the contract without signing in, step 1: e-mails a single-use link (24 h) to the address if it has a paid order. The answer is the same either way. Rate limited per address and per IP as cancel links are.',
  request: { body: bodyOf(linkRequestBody) },
  responses: { 200: jsonResponse(envelope(linkSentSchema), 'Accepted'), ...fails(BAD_INPUT) },
});

// GET /api_f/v1/portal/withdraw/link/{token} - the link's state and the contracts it can withdraw from
const linkRoute = createRoute({
  method: 'get',
  path: '/portal/withdraw/link/{token}',
  summary:
    "State of an e-mailed withdrawal link (usable, used, expired, unknown) and, while usable, the account's contracts as the confirmation step names them (product, order reference, payment date, price, subscription, refund). A used link has ended: it answers only when its withdrawal was completed (completedAt), nothing of the order or the number.",
  request: { params: withdrawTokenParams },
  responses: { 200: jsonResponse(envelope(withdrawLinkSchema), 'Link state'), ...fails(BAD_INPUT) },
});

// POST /api_f/v1/portal/withdraw/confirm - "Confirm withdrawal" from the e-mailed link
const linkConfirmRoute = createRoute({
  method: 'post',
  path: '/portal/withdraw/confirm',
  summary:
    "Withdraw without signing in, step 2: the link's token (single use) withdraws from the named contract: refund (key withdraw-<code>), the subscription ends at once, an acknowledgement by e-mail. 410 when the link is used, expired or unknown.",
  request: { body: bodyOf(linkConfirmBody) },
  responses: {
    200: jsonResponse(envelope(acknowledgementSchema), 'Withdrawn'),
    ...fails({ 410: 'Link not valid', ...refusals, ...BAD_INPUT }),
  },
});

// GET /api_f/v1/admin/withdraw/contracts - the signed-in buyer's contracts
const contractsRoute = createRoute({
  method: 'get',
  path: '/admin/withdraw/contracts',
  summary: "The caller's contracts for the withdrawal confirmation step (as the e-mailed link shows them)",
  middleware: [requireUser] as const,
  responses: { 200: jsonResponse(envelope(contractsSchema), 'Contracts'), ...fails(SIGNED_OUT) },
});

// POST /api_f/v1/admin/withdraw/confirm - "Confirm withdrawal" signed in
const accountConfirmRoute = createRoute({
  method: 'post',
  path: '/admin/withdraw/confirm',
  summary: "Withdraw from one of the caller's contracts (as /portal/withdraw/confirm, without the e-mail round-trip)",
  middleware: [requireUser] as const,
  request: { body: bodyOf(accountConfirmBody) },
  responses: {
    200: jsonResponse(envelope(acknowledgementSchema), 'Withdrawn'),
    ...fails({ ...SIGNED_OUT, ...refusals, ...BAD_INPUT }),
  },
});

/** The withdrawal function's API (services/billing/withdrawals.ts; Directive 2011/83/EU Art. 11a). */
export const withdrawApi = new OpenAPIHono<AppEnv>()
  .openapi(requestRoute, async (c) => {
    const body = readBody(c, linkRequestBody);
    // The cancel links' limits, on keys of their own: asking for one link does not use up the other.
    await consume('cancelLinksPerIp', `withdraw:${c.get('clientIp') ?? 'unknown'}`);
    await consume('cancelLinksPerEmail', `withdraw:${emailKey(body.email)}`);
    await requestWithdrawLink(await c.var.db(), body.email, body.locale);
    return ok(c, { sent: true as const });
  })
  .openapi(linkRoute, async (c) =>
    ok(c, await withdrawLinkState(await c.var.db(), c.req.valid('param').token, c.get('lang'))),
  )
  .openapi(linkConfirmRoute, async (c) => {
    const body = readBody(c, linkConfirmBody);
    const result = await withdraw(await c.var.db(), {
      token: body.token,
      code: body.code,
      timeZone: body.timeZone,
      ip: c.get('clientIp') ?? null,
      userAgent: c.req.header('user-agent') ?? null,
    });
    return ok(c, acknowledgementView(result.withdrawal, result.order, c.get('lang'), result.repeated));
  })
  .openapi(contractsRoute, async (c) =>
    ok(c, { contracts: await withdrawalContracts(await c.var.db(), c.get('user')!.id, c.get('lang'), new Date()) }),
  )
  .openapi(accountConfirmRoute, async (c) => {
    const body = readBody(c, accountConfirmBody);
    const result = await withdraw(await c.var.db(), {
      userId: c.get('user')!.id,
      code: body.code,
      timeZone: body.timeZone,
      ip: c.get('clientIp') ?? null,
      userAgent: c.req.header('user-agent') ?? null,
    });
    return ok(c, acknowledgementView(result.withdrawal, result.order, c.get('lang'), result.repeated));
  });
