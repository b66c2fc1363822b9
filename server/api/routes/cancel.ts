import 'server-only';
import { OpenAPIHono, createRoute } from '@hono/zod-openapi';
import { emailKey } from '../../services/accounts';
import { cancelLinkState, confirmCancelLink, requestCancelLink } from '../../services/billing';
import { consume } from '../../services/rate-limit';
import type { AppEnv } from '../context';
import { BAD_INPUT, envelope, fails, jsonResponse, ok } from '../respond';
import {
  cancelLinkSchema,
  cancelResultSchema,
  cancelTokenSchema,
  linkRequestBody,
  linkSentSchema,
} from '../../../lib/contracts/billing';
import { bodyOf, readBody } from '../validation';

// POST /api_f/v1/portal/cancel/request - e-mail a cancel link (no sign-in)
const requestRoute = createRoute({
  method: 'post',
  path: '/portal/cancel/request',
  summary:
    'Cancel without signing in, step 1: e-mails a single-use link (24 h) to the address if it has a live subscription. The answer is the same either way. Rate limited per address and per IP.',
  request: { body: bodyOf(linkRequestBody) },
  responses: { 200: jsonResponse(envelope(linkSentSchema), 'Accepted'), ...fails(BAD_INPUT) },
});

// POST /api_f/v1/portal/cancel/confirm - the e-mailed link cancels
const confirmRoute = createRoute({
  method: 'post',
  path: '/portal/cancel/confirm',
  summary:
    "Cancel without signing in, step 2: the link's token cancels the owner's subscriptions at the next billing date (as PUT /admin/user/cancelSubscribe does). 410 when used, expired or unknown.",
  request: { body: bodyOf(cancelTokenSchema) },
  responses: {
    200: jsonResponse(envelope(cancelResultSchema), 'Cancelled'),
    ...fails({ 410: 'Link not valid', ...BAD_INPUT }),
  },
});

// GET /api_f/v1/portal/cancel/link/{token} - what an e-mailed cancel link can still do
const linkRoute = createRoute({
  method: 'get',
  path: '/portal/cancel/link/{token}',
  summary:
    "State of an e-mailed cancel link: usable, used (with the subscription's status and the date access ends), expired or unknown.",
  request: { params: cancelTokenSchema },
  responses: { 200: jsonResponse(envelope(cancelLinkSchema), 'Link state'), ...fails(BAD_INPUT) },
});

export const cancelApi = new OpenAPIHono<AppEnv>()
  .openapi(linkRoute, async (c) => ok(c, await cancelLinkState(await c.var.db(), c.req.valid('param').token)))
  .openapi(requestRoute, async (c) => {
    const body = readBody(c, linkRequestBody);
    await consume('cancelLinksPerIp', c.get('clientIp') ?? 'unknown');
    // Keyed by the address's hash, registered or not: the same answers either way, and no address in the table.
    await consume('cancelLinksPerEmail', emailKey(body.email));
    await requestCancelLink(await c.var.db(), body.email, body.locale);
    return ok(c, { sent: true as const });
  })
  .openapi(confirmRoute, async (c) => {
    const { token } = readBody(c, cancelTokenSchema);
    const result = await confirmCancelLink(await c.var.db(), token);
    return ok(c, { cancelAt: result.cancelAt.map((d) => d.toISOString()) });
  });
