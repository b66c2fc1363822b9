import 'server-only';
import { OpenAPIHono } from '@hono/zod-openapi';
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
import { ok } from '../respond';
import { clearSessionCookie, readSessionCookie, setSessionCookie } from '../session-cookies';
import { readBody, validationHook } from '../validation';
import { asInternational, opsOptOutBody, opsReasonBody, opsReplyBody, opsSignInBody } from '../../../lib/contracts/ops';
import {
  abuseRoute,
  addOptOutRoute,
  auditRoute,
  cancelRoute,
  funnelRoute,
  messagesRoute,
  ordersRoute,
  refundRoute,
  removeOptOutRoute,
  replyRoute,
  retryRoute,
  sessionRoute,
  signInRoute,
  signOutRoute,
  supportRoute,
} from './ops-routes';

// The operator console's API under /api_f/v1/ops: sign-in, then one desk per tab of app/ops (components/ops). The
// routes' definitions: ./ops-routes.ts.

type OpsEnv = AppEnv & { Variables: { operator: OperatorView } };

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
