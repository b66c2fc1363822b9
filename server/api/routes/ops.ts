import 'server-only';
import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { z } from 'zod';
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
  OPS_SESSION_MS,
  type OperatorView,
} from '../../services/ops';
import type { AppEnv } from '../context';
import { ApiError, ErrorCode } from '../errors';
import { e164Of } from '../phone';
import { asInternational } from '../../services/ops/phone';
import { ok } from '../respond';
import { clearOpsCookie, readOpsCookie, setOpsCookie } from '../session-cookies';
import { emailBody } from '../../../lib/contracts/fields';
import { zodToApiError } from '../validation';

/**
 * The console's session cookie (`__Host-ops_token` on an https origin, else `ops_token`): HttpOnly, SameSite=Strict,
 * 12 hours; separate from the buyers' session cookie (server/api/session-cookies.ts).
 */

type OpsEnv = AppEnv & { Variables: { operator: OperatorView } };

/**
 * The JSON body validated by `schema`, or ApiError 422 naming the first bad field. A body declared as anything but
 * `application/json` answers 415 (the console page always sends JSON; RFC 9110 §15.5.16); none is validated as `{}`.
 */
async function jsonBody<T extends z.ZodType>(c: Context, schema: T): Promise<z.infer<T>> {
  const type = c.req.header('content-type');
  if (type && type.split(';')[0]!.trim().toLowerCase() !== 'application/json')
    throw new ApiError(415, ErrorCode.unsupportedMedia, 'Api.unsupportedMedia');
  const raw = type ? await c.req.json().catch(() => ({})) : {};
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw zodToApiError(parsed.error);
  return parsed.data;
}

/** Why an operator acted: required for every change, 3–500 characters (who, what, when, why). */
const reasonField = z.string('Validation.invalid').trim().min(3, 'Validation.invalid').max(500, 'Validation.invalid');
const uuidParam = z.uuid();

/** The `:id` path parameter as a UUID, or 404 (an id that cannot exist). */
function idParam(c: Context): string {
  const parsed = uuidParam.safeParse(c.req.param('id'));
  if (!parsed.success) throw new ApiError(404, ErrorCode.notFound, 'Api.notFound');
  return parsed.data;
}

/** Every console answer: never cached, never indexed. */
const noStore: MiddlewareHandler = async (c, next) => {
  await next();
  c.header('Cache-Control', 'no-store');
  c.header('X-Robots-Tag', 'noindex, nofollow');
};

/** Guard: a live operator session from the console's cookie, else 401 (code 20012). */
const requireOperator: MiddlewareHandler<OpsEnv> = async (c, next) => {
  const token = readOpsCookie(c);
  const operator = token ? await findOperator(await c.var.db(), token) : null;
  if (!operator) throw new ApiError(401, ErrorCode.sessionInvalid, 'Api.notLoggedIn');
  c.set('operator', operator);
  await next();
};

const signInBody = z.object({
  email: emailBody,
  password: z.string('Validation.passwordRequired').min(1, 'Validation.passwordRequired').max(200),
  code: z
    .string('Validation.codeRequired')
    .trim()
    .regex(/^\d{3} ?\d{3}$/, 'Validation.codeLength'),
});

/**
 * The operator console's API under `/api_f/v1/ops`, kept out of the OpenAPI document. Sign-in takes
 * e-mail, password and a TOTP code and sets the console's session cookie; every other route needs that session (401
 * otherwise), and every change takes a `reason` and is written to the append-only audit log in the same step. No
 * answer carries a consent code, a token, a password hash, a TOTP secret or a message body. Mutations need the
 * `website_type` header like the rest of the API (403). Answers in the usual envelope; amounts in minor units.
 */
export const opsApi = new Hono<OpsEnv>()
  .use('/ops/*', noStore)
  // POST /ops/session {email,password,code} → {email}; 401 for any wrong part, 429 when limited.
  .post('/ops/session', async (c) => {
    const input = await jsonBody(c, signInBody);
    const session = await opsSignIn(await c.var.db(), input, c.get('clientIp'));
    setOpsCookie(c, session.token, Math.floor(OPS_SESSION_MS / 1000));
    return ok(c, { email: session.operator.email });
  })
  .use('/ops/*', requireOperator)
  // GET /ops/session → the signed-in operator's e-mail.
  .get('/ops/session', (c) => ok(c, { email: c.get('operator').email }))
  // DELETE /ops/session → signs out (audited).
  .delete('/ops/session', async (c) => {
    await opsSignOut(await c.var.db(), c.get('operator'));
    clearOpsCookie(c);
    return ok(c, { signedOut: true });
  })
  // GET /ops/orders?q= → orders by code, e-mail or number, with subscriptions and refund.
  .get('/ops/orders', async (c) => {
    const q = (c.req.query('q') ?? '').slice(0, 200);
    return ok(c, { orders: await searchOrders(await c.var.db(), q) });
  })
  // POST /ops/orders/:id/refund {reason} → the buyer's refund service; 409 with the refusal reason.
  .post('/ops/orders/:id/refund', async (c) => {
    const { reason } = await jsonBody(c, z.object({ reason: reasonField }));
    const result = await opsRefund(await c.var.db(), c.get('operator'), idParam(c), reason);
    return ok(c, { refunded: true, repeated: result.repeated, amountMinor: result.refund.amountMinor });
  })
  // POST /ops/orders/:id/cancel {reason} → cancels the buyer's live subscriptions at period end.
  .post('/ops/orders/:id/cancel', async (c) => {
    const { reason } = await jsonBody(c, z.object({ reason: reasonField }));
    const result = await opsCancel(await c.var.db(), c.get('operator'), idParam(c), reason);
    return ok(c, { cancelAt: result.cancelAt });
  })
  // GET /ops/abuse → abuse reports and the opt-out list.
  .get('/ops/abuse', async (c) => ok(c, await abuseOverview(await c.var.db())))
  // POST /ops/opt-outs {phone,reason} → adds a number to the opt-out list.
  .post('/ops/opt-outs', async (c) => {
    const { phone, reason } = await jsonBody(
      c,
      z.object({
        phone: z.string('Validation.phoneRequired').min(1, 'Validation.phoneRequired').max(40),
        reason: reasonField,
      }),
    );
    return ok(c, await addOptOut(await c.var.db(), c.get('operator'), e164Of(asInternational(phone)), reason));
  })
  // DELETE /ops/opt-outs/:phone {reason} → removes it; 404 when not listed.
  .delete('/ops/opt-outs/:phone', async (c) => {
    const { reason } = await jsonBody(c, z.object({ reason: reasonField }));
    const phone = e164Of(asInternational(c.req.param('phone')));
    return ok(c, await removeOptOut(await c.var.db(), c.get('operator'), phone, reason));
  })
  // GET /ops/messages → SMS and e-mails that failed or wait for a retry (no bodies).
  .get('/ops/messages', async (c) => ok(c, { messages: await undeliveredMessages(await c.var.db()) }))
  // POST /ops/messages/:id/retry {reason} → queued again for a new round of attempts.
  .post('/ops/messages/:id/retry', async (c) => {
    const { reason } = await jsonBody(c, z.object({ reason: reasonField }));
    await retryMessage(await c.var.db(), c.get('operator'), idParam(c), reason);
    return ok(c, { queued: true });
  })
  // GET /ops/support → contact-form messages.
  .get('/ops/support', async (c) => ok(c, { messages: await supportInbox(await c.var.db()) }))
  // POST /ops/support/:id/reply {reply} → e-mails the reply (1–5000 characters).
  .post('/ops/support/:id/reply', async (c) => {
    const { reply } = await jsonBody(
      c,
      z.object({
        reply: z.string('Validation.messageRequired').trim().min(1, 'Validation.messageRequired').max(5000),
      }),
    );
    await replySupport(await c.var.db(), c.get('operator'), idParam(c), reply);
    return ok(c, { sent: true });
  })
  // GET /ops/funnel?days=7 → visitors per stage, per locale and channel (1–90 days).
  .get('/ops/funnel', async (c) => {
    const days = Math.min(90, Math.max(1, Number.parseInt(c.req.query('days') ?? '7', 10) || 7));
    return ok(c, { days, rows: await opsFunnel(await c.var.db(), days) });
  })
  // GET /ops/audit → the newest audit entries.
  .get('/ops/audit', async (c) => ok(c, { entries: await auditLog(await c.var.db()) }));
