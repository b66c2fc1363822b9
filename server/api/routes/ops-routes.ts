import 'server-only';
import { createRoute } from '@hono/zod-openapi';
import { BAD_INPUT, envelope, fails, jsonResponse } from '../respond';
import { jsonBodyOf } from '../validation';
import {
  OPS_ANSWERS,
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

// The operator console's routes under /api_f/v1/ops as the route kit defines them (path, method, parameters, body and
// answers, from the contracts of lib/contracts/ops.ts); their handlers and guards are ./ops.ts
// (docs/decisions/0024-console-in-the-route-kit.md).

/** The 200 answer of `call`, its envelope around the contract's schema (lib/contracts/ops.ts OPS_ANSWERS). */
function answers<K extends OpsCall>(call: K, description: string) {
  return { 200: jsonResponse(envelope(OPS_ANSWERS[call]), description) };
}

/** The console's refusal of a caller without a live operator session (`requireOperator`). */
const NO_OPERATOR = { 401: 'No live operator session (code 20012)' } as const;

/** The answers of a route that reads a JSON body (`jsonBodyOf`): bad input, or a body that is not JSON. */
const JSON_INPUT = { ...BAD_INPUT, 415: 'A body that is not application/json' } as const;

// POST /api_f/v1/ops/session - an operator signs in
export const signInRoute = createRoute({
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
export const sessionRoute = createRoute({
  method: 'get',
  path: '/ops/session',
  summary: "The signed-in operator's e-mail",
  responses: { ...answers('GET /session', 'Operator'), ...fails(NO_OPERATOR) },
});

// DELETE /api_f/v1/ops/session - the operator signs out
export const signOutRoute = createRoute({
  method: 'delete',
  path: '/ops/session',
  summary: 'Ends the console session (audited as sign_out) and clears its cookie',
  responses: { ...answers('DELETE /session', 'Signed out'), ...fails(NO_OPERATOR) },
});

// GET /api_f/v1/ops/orders - order search
export const ordersRoute = createRoute({
  method: 'get',
  path: '/ops/orders',
  summary:
    'Orders by code or reference (exact, any case), part of an e-mail or a number (E.164, the + optional), newest first, at most 50, with subscriptions, refund, withdrawal and the proof of consent; no query lists the newest',
  request: { query: opsOrdersQuery },
  responses: { ...answers('GET /orders', 'Orders'), ...fails(NO_OPERATOR) },
});

// POST /api_f/v1/ops/orders/{id}/refund - refund an order
export const refundRoute = createRoute({
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
export const cancelRoute = createRoute({
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
export const abuseRoute = createRoute({
  method: 'get',
  path: '/ops/abuse',
  summary:
    "The owners' abuse reports with the reported request's buyer, and the opt-out list; no code, token or SMS text",
  responses: { ...answers('GET /abuse', 'Reports and opt-outs'), ...fails(NO_OPERATOR) },
});

// POST /api_f/v1/ops/opt-outs - add a number to the opt-out list
export const addOptOutRoute = createRoute({
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
export const removeOptOutRoute = createRoute({
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
export const messagesRoute = createRoute({
  method: 'get',
  path: '/ops/messages',
  summary: 'SMS and e-mails that failed or wait for a retry after an error, newest first, at most 200; never a body',
  responses: { ...answers('GET /messages', 'Messages'), ...fails(NO_OPERATOR) },
});

// POST /api_f/v1/ops/messages/{id}/retry - queue a message again
export const retryRoute = createRoute({
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
export const supportRoute = createRoute({
  method: 'get',
  path: '/ops/support',
  summary: 'Contact-form messages, newest first, at most 200, with when an operator last replied',
  responses: { ...answers('GET /support', 'Messages'), ...fails(NO_OPERATOR) },
});

// POST /api_f/v1/ops/support/{id}/reply - reply by e-mail
export const replyRoute = createRoute({
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
export const funnelRoute = createRoute({
  method: 'get',
  path: '/ops/funnel',
  summary: 'Visitors per funnel stage, per locale and channel, over the last days (1–90, 7 by default)',
  request: { query: opsFunnelQuery },
  responses: { ...answers('GET /funnel', 'Report'), ...fails({ ...NO_OPERATOR, 422: 'days outside 1–90' }) },
});

// GET /api_f/v1/ops/audit - the audit log
export const auditRoute = createRoute({
  method: 'get',
  path: '/ops/audit',
  summary: 'The newest entries of the append-only audit log, at most 200',
  responses: { ...answers('GET /audit', 'Entries'), ...fails(NO_OPERATOR) },
});
