import 'server-only';
import { OpenAPIHono, createRoute } from '@hono/zod-openapi';
import { Hono, type MiddlewareHandler } from 'hono';
import {
  abuseOverview,
  addOptOut,
  auditLog,
  findOperator,
  opsCancel,
  opsFunnel,
  opsRefund,
  opsSignIn,
  opsSignOut,
  removeOptOut,
  replySupport,
  retryMessage,
  searchOrders,
  supportInbox,
  undeliveredMessages,
  type OperatorView,
} from '../../services/ops';
import type { AppEnv } from '../context';
import { ApiError, ErrorCode } from '../errors';
import { e164Of } from '../phone';
import { BAD_INPUT, envelope, fails, jsonResponse, ok } from '../respond';
import { clearSessionCookie, readSessionCookie, setSessionCookie } from '../session-cookies';
import { jsonBodyOf, readBody, validationHook } from '../validation';
import {
  OPS_ANSWERS,
  asInternational,
  opsFunnelQuery,
  opsIdParams,
  opsOptOutBody,
  opsOrdersQuery,
  opsPhoneParams,
  opsReasonBody,
  opsReplyBody,
  opsSignInBody,
  type OpsCall,
} from '../../../lib/contracts/ops';

// The operator console's API under /api_f/v1/ops: sign-in, then one desk per tab of app/ops (components/ops).

type OpsEnv = AppEnv & { Variables: { operator: OperatorView } };

/** The 200 answer of `call`, its envelope around the contract's schema (lib/contracts/ops.ts OPS_ANSWERS). */
function answers<K extends OpsCall>(call: K, description: string) {
  return { 200: jsonResponse(envelope(OPS_ANSWERS[call]), description) };
}

/** The console's refusal of a caller without a live operator session (`requireOperator`). */
const NO_OPERATOR = { 401: 'No live operator session (code 20012)' } as const;

/** The answers of a route that reads a JSON body (`jsonBodyOf`): bad input, or a body that is not JSON. */
const JSON_INPUT = { ...BAD_INPUT, 415: 'A body that is not application/json' } as const;

/** Every console answer: never cached, never indexed. */
const noStore: MiddlewareHandler = async (c, next) => {
  await next();
  c.header('Cache-Control', 'no-store');
  c.header('X-Robots-Tag', 'noindex, nofollow');
};

/**
 * Guard of every console route but sign-in: a live operator session from the console's cookie (`__Host-ops_token` on
 * an https origin, else `ops_token`; server/api/session-cookies.ts), else 401 code 20012. Runs before any body is read.
 */
const requireOperator: MiddlewareHandler<OpsEnv> = async (c, next) => {
  const token = readSessionCookie(c, 'operator');
  const operator = token ? await findOperator(await c.var.db(), token) : null;
  if (!operator) throw new ApiError(401, ErrorCode.sessionInvalid, 'Api.notLoggedIn');
  c.set('operator', operator);
  await next();
};

// POST /api_f/v1/ops/session - an operator signs in
const signInRoute = createRoute({
  method: 'post',
  path: '/ops/session',
  summary:
    "Signs an operator in with e-mail, password and a current TOTP code (RFC 6238, accepted once) and sets the console's session cookie (HttpOnly, SameSite=Strict, 12 hours). One 401 for any wrong part; 429 past the sign-in limits (docs/running.md, the operator console)",
  request: { body: jsonBodyOf(opsSignInBody) },
  responses: {
    ...answers('POST /session', 'Signed in'),
    ...fails({ 401: 'Wrong e-mail, password or code', 429: 'Too many attempts', ...JSON_INPUT }),
  },
});

// GET /api_f/v1/ops/session - who is signed in
const sessionRoute = createRoute({
  method: 'get',
  path: '/ops/session',
  summary: "The signed-in operator's e-mail",
  responses: { ...answers('GET /session', 'Operator'), ...fails(NO_OPERATOR) },
});

// DELETE /api_f/v1/ops/session - the operator signs out
const signOutRoute = createRoute({
  method: 'delete',
  path: '/ops/session',
  summary: 'Ends the console session (audited as sign_out) and clears its cookie',
  responses: { ...answers('DELETE /session', 'Signed out'), ...fails(NO_OPERATOR) },
});

// GET /api_f/v1/ops/orders - order search
const ordersRoute = createRoute({
  method: 'get',
  path: '/ops/orders',
  summary:
    'Orders by code or reference (exact, any case), part of an e-mail or a number (E.164, the + optional), newest first, at most 50, with subscriptions, refund, withdrawal and the proof of consent; no query lists the newest',
  request: { query: opsOrdersQuery },
  responses: { ...answers('GET /orders', 'Orders'), ...fails(NO_OPERATOR) },
});

// POST /api_f/v1/ops/orders/{id}/refund - refund an order
const refundRoute = createRoute({
  method: 'post',
  path: '/ops/orders/{id}/refund',
  summary:
    "Refunds an order through the buyer's own refund service (same eligibility, the provider's idempotency key, the buyer e-mailed) and audits order.refund with the reason",
  request: { params: opsIdParams, body: jsonBodyOf(opsReasonBody) },
  responses: {
    ...answers('POST /orders/{id}/refund', 'Refunded'),
    ...fails({ ...NO_OPERATOR, 404: 'Unknown order', 409: 'Not refundable; msg says why', ...JSON_INPUT }),
  },
});

// POST /api_f/v1/ops/orders/{id}/cancel - cancel the buyer's subscriptions at period end
const cancelRoute = createRoute({
  method: 'post',
  path: '/ops/orders/{id}/cancel',
  summary:
    "Cancels the live subscriptions of the order's buyer at their period end through the buyer's own service and audits subscription.cancel with the reason",
  request: { params: opsIdParams, body: jsonBodyOf(opsReasonBody) },
  responses: {
    ...answers('POST /orders/{id}/cancel', 'Cancelled'),
    ...fails({ ...NO_OPERATOR, 404: 'Unknown order', 409: 'Nothing live to cancel', ...JSON_INPUT }),
  },
});

// GET /api_f/v1/ops/abuse - abuse reports and the opt-out list
const abuseRoute = createRoute({
  method: 'get',
  path: '/ops/abuse',
  summary:
    "The owners' abuse reports with the reported request's buyer, and the opt-out list; no code, token or SMS text",
  responses: { ...answers('GET /abuse', 'Reports and opt-outs'), ...fails(NO_OPERATOR) },
});

// POST /api_f/v1/ops/opt-outs - add a number to the opt-out list
const addOptOutRoute = createRoute({
  method: 'post',
  path: '/ops/opt-outs',
  summary:
    'Adds a number (international, the + optional) to the opt-out list with the reason; no consent SMS goes to it any more. Already listed: added false. A refused number answers 400 with its kind, as everywhere in the API',
  request: { body: jsonBodyOf(opsOptOutBody) },
  responses: {
    ...answers('POST /opt-outs', 'Listed'),
    ...fails({ ...NO_OPERATOR, ...JSON_INPUT, 400: 'Malformed input, or a refused number (kind)' }),
  },
});

// DELETE /api_f/v1/ops/opt-outs/{phone} - remove a number from the opt-out list
const removeOptOutRoute = createRoute({
  method: 'delete',
  path: '/ops/opt-outs/{phone}',
  summary: 'Removes a number from the opt-out list with the reason (consent SMS may go to it again)',
  request: { params: opsPhoneParams, body: jsonBodyOf(opsReasonBody) },
  responses: {
    ...answers('DELETE /opt-outs/{phone}', 'Removed'),
    ...fails({
      ...NO_OPERATOR,
      404: 'Not listed',
      ...JSON_INPUT,
      400: 'Malformed input, or a refused number (kind)',
    }),
  },
});

// GET /api_f/v1/ops/messages - undelivered e-mails and SMS
const messagesRoute = createRoute({
  method: 'get',
  path: '/ops/messages',
  summary: 'SMS and e-mails that failed or wait for a retry after an error, newest first, at most 200; never a body',
  responses: { ...answers('GET /messages', 'Messages'), ...fails(NO_OPERATOR) },
});

// POST /api_f/v1/ops/messages/{id}/retry - queue a message again
const retryRoute = createRoute({
  method: 'post',
  path: '/ops/messages/{id}/retry',
  summary:
    'Queues a failed (or retry-waiting) message again for a new round of attempts, due at once, and audits message.retry; a finally failed one goes without its secrets',
  request: { params: opsIdParams, body: jsonBodyOf(opsReasonBody) },
  responses: {
    ...answers('POST /messages/{id}/retry', 'Queued'),
    ...fails({ ...NO_OPERATOR, 404: 'Unknown message', 409: 'Neither failed nor waiting for a retry', ...JSON_INPUT }),
  },
});

// GET /api_f/v1/ops/support - contact-form messages
const supportRoute = createRoute({
  method: 'get',
  path: '/ops/support',
  summary: 'Contact-form messages, newest first, at most 200, with when an operator last replied',
  responses: { ...answers('GET /support', 'Messages'), ...fails(NO_OPERATOR) },
});

// POST /api_f/v1/ops/support/{id}/reply - reply by e-mail
const replyRoute = createRoute({
  method: 'post',
  path: '/ops/support/{id}/reply',
  summary:
    "E-mails a reply to a contact-form message (template support-reply, in the message's language, through the outbox), marks it replied and audits support.reply (the reply's length, not its text)",
  request: { params: opsIdParams, body: jsonBodyOf(opsReplyBody) },
  responses: {
    ...answers('POST /support/{id}/reply', 'Queued for e-mail'),
    ...fails({ ...NO_OPERATOR, 404: 'Unknown message', ...JSON_INPUT }),
  },
});

// GET /api_f/v1/ops/funnel - the funnel report
const funnelRoute = createRoute({
  method: 'get',
  path: '/ops/funnel',
  summary: 'Visitors per funnel stage, per locale and channel, over the last days (1–90, 7 by default)',
  request: { query: opsFunnelQuery },
  responses: { ...answers('GET /funnel', 'Report'), ...fails({ ...NO_OPERATOR, 422: 'days outside 1–90' }) },
});

// GET /api_f/v1/ops/audit - the audit log
const auditRoute = createRoute({
  method: 'get',
  path: '/ops/audit',
  summary: 'The newest entries of the append-only audit log, at most 200',
  responses: { ...answers('GET /audit', 'Entries'), ...fails(NO_OPERATOR) },
});

/**
 * The operator console's API under `/api_f/v1/ops`, in the API's route kit: each route a `createRoute` with its
 * contract (lib/contracts/ops.ts), validated by the API's hook (422 naming the first bad field, server/api/validation.ts),
 * refusals mapped by the app's one `onError` (server/api/app.ts, `REFUSALS` of server/api/errors.ts), a refused number
 * answered as everywhere (400 with `kind`, server/api/phone.ts). Sign-in takes e-mail, password and a TOTP code and
 * sets the console's session cookie; every other route needs that session (401 otherwise, checked before any body is
 * read), and every change takes a `reason` and is written to the append-only audit log in the same step. Bodies are
 * JSON only (415 otherwise); mutations need the `website_type` header like the rest of the API (403). No answer carries
 * a consent code, a token, a password hash, a TOTP secret or a message body; none is cached or indexed. Amounts in
 * minor units.
 *
 * Kept out of the public OpenAPI document (`/api_f/v1/openapi.json`, which anyone may read): the app mounts
 * `opsMount`, which hides these definitions from it. Their own document, `GET /api_f/v1/ops/openapi.json`, sits behind
 * the operator session like every other console route (docs/decisions/0024-console-in-the-route-kit.md).
 */
export const opsApi = new OpenAPIHono<OpsEnv>({ defaultHook: validationHook });

opsApi.use('/ops/*', noStore);

opsApi.openapi(signInRoute, async (c) => {
  const input = readBody(c, opsSignInBody);
  const session = await opsSignIn(await c.var.db(), input, c.get('clientIp'));
  setSessionCookie(c, 'operator', session.token);
  return ok(c, { email: session.operator.email });
});

// Every route registered after this line needs an operator session; sign-in above is the only one that does not.
opsApi.use('/ops/*', requireOperator);

opsApi
  .openapi(sessionRoute, (c) => ok(c, { email: c.get('operator').email }))
  .openapi(signOutRoute, async (c) => {
    await opsSignOut(await c.var.db(), c.get('operator'));
    clearSessionCookie(c, 'operator');
    return ok(c, { signedOut: true as const });
  })
  .openapi(ordersRoute, async (c) =>
    ok(c, { orders: await searchOrders(await c.var.db(), c.req.valid('query').q ?? '') }),
  )
  .openapi(refundRoute, async (c) => {
    const { reason } = readBody(c, opsReasonBody);
    const result = await opsRefund(await c.var.db(), c.get('operator'), c.req.valid('param').id, reason);
    return ok(c, { refunded: true as const, repeated: result.repeated, amountMinor: result.refund.amountMinor });
  })
  .openapi(cancelRoute, async (c) => {
    const { reason } = readBody(c, opsReasonBody);
    const result = await opsCancel(await c.var.db(), c.get('operator'), c.req.valid('param').id, reason);
    return ok(c, { cancelAt: result.cancelAt });
  })
  .openapi(abuseRoute, async (c) => ok(c, await abuseOverview(await c.var.db())))
  .openapi(addOptOutRoute, async (c) => {
    const { phone, reason } = readBody(c, opsOptOutBody);
    return ok(c, await addOptOut(await c.var.db(), c.get('operator'), e164Of(asInternational(phone)), reason));
  })
  .openapi(removeOptOutRoute, async (c) => {
    const { reason } = readBody(c, opsReasonBody);
    const phone = e164Of(asInternational(c.req.valid('param').phone));
    return ok(c, await removeOptOut(await c.var.db(), c.get('operator'), phone, reason));
  })
  .openapi(messagesRoute, async (c) => ok(c, { messages: await undeliveredMessages(await c.var.db()) }))
  .openapi(retryRoute, async (c) => {
    const { reason } = readBody(c, opsReasonBody);
    await retryMessage(await c.var.db(), c.get('operator'), c.req.valid('param').id, reason);
    return ok(c, { queued: true as const });
  })
  .openapi(supportRoute, async (c) => ok(c, { messages: await supportInbox(await c.var.db()) }))
  .openapi(replyRoute, async (c) => {
    const { reply } = readBody(c, opsReplyBody);
    await replySupport(await c.var.db(), c.get('operator'), c.req.valid('param').id, reply);
    return ok(c, { sent: true as const });
  })
  .openapi(funnelRoute, async (c) => {
    const { days } = c.req.valid('query');
    return ok(c, { days, rows: await opsFunnel(await c.var.db(), days) });
  })
  .openapi(auditRoute, async (c) => ok(c, { entries: await auditLog(await c.var.db()) }));

// GET /api_f/v1/ops/openapi.json - the console's own OpenAPI document, for operators only (behind requireOperator)
opsApi.doc31('/ops/openapi.json', {
  openapi: '3.1.0',
  info: {
    title: 'Locate-with-consent operator console API',
    version: '1.0.0',
    description: 'Envelope: {success:1,msg,obj} / {success:0,code,msg}',
  },
  servers: [{ url: '/api_f/v1' }],
});

/**
 * What the app mounts (server/api/app.ts): `opsApi` inside a plain Hono, whose `route` copies the routes but not their
 * OpenAPI definitions, so the public document at `/api_f/v1/openapi.json` does not list the console. Errors still
 * reach the app's one `onError`.
 */
export const opsMount = new Hono<AppEnv>().route('/', opsApi);
