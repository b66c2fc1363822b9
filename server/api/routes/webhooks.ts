import 'server-only';
import { OpenAPIHono, createRoute, z } from '@hono/zod-openapi';
import twilio from 'twilio';
import { env } from '../../env';
import { parseE164 } from '../../../lib/contracts/e164';
import { handleStripeEvent } from '../../payments/stripe-webhook';
import { stripeClient } from '../../providers/stripe';
import { applyInboundSms, applyTwilioStatus } from '../../services/messaging';
import type { AppEnv } from '../context';
import { ApiError, ErrorCode } from '../errors';
import { envelope, fails, jsonResponse, ok } from '../respond';

// POST /api_f/v1/webhooks/twilio - Twilio status callbacks and inbound SMS (STOP)
const route = createRoute({
  method: 'post',
  path: '/webhooks/twilio',
  summary:
    'Twilio status callback (MessageSid, MessageStatus) or inbound SMS (From, Body: STOP opts the number out). The X-Twilio-Signature is verified with TWILIO_AUTH_TOKEN against APP_ORIGIN + path: 403 when it does not match, 503 when no token is configured.',
  responses: {
    200: jsonResponse(envelope(z.object({ status: z.string().nullable() })), 'Applied (or ignored as stale)'),
    ...fails({ 403: 'Bad signature', 503: 'Not configured' }),
  },
});

// POST /api_f/v1/webhooks/stripe - Stripe events (Checkout completion, invoices, subscription changes)
const stripeRoute = createRoute({
  method: 'post',
  path: '/webhooks/stripe',
  summary:
    'Stripe webhook. The raw body is verified against the Stripe-Signature header with STRIPE_WEBHOOK_SECRET (400 when it does not match, and nothing changes); each event id is handled once; a handler failure answers 500 so Stripe retries.',
  responses: {
    200: jsonResponse(envelope(z.object({ result: z.enum(['handled', 'duplicate', 'ignored']) })), 'Received'),
    ...fails({ 400: 'Bad signature', 503: 'Not configured' }),
  },
});

export const webhooksApi = new OpenAPIHono<AppEnv>()
  .openapi(stripeRoute, async (c) => {
    const secret = env().STRIPE_WEBHOOK_SECRET;
    if (!secret || !env().STRIPE_SECRET_KEY) throw new ApiError(503, ErrorCode.unavailable, 'Api.unavailable');
    // The signature covers the exact bytes Stripe sent: read the raw text, never a parsed body.
    const raw = await c.req.text();
    let event;
    try {
      event = await stripeClient().webhooks.constructEventAsync(raw, c.req.header('stripe-signature') ?? '', secret);
    } catch {
      throw new ApiError(400, ErrorCode.badRequest, 'Api.badSignature');
    }
    const { result } = await handleStripeEvent(await c.var.db(), event);
    return ok(c, { result });
  })
  .openapi(route, async (c) => {
    const token = env().TWILIO_AUTH_TOKEN;
    // Not configured: an error, never a silent 200 (the provider would believe the event was handled).
    if (!token) throw new ApiError(503, ErrorCode.unavailable, 'Api.unavailable');
    const form = await c.req.parseBody();
    const params = Object.fromEntries(
      Object.entries(form).filter((e): e is [string, string] => typeof e[1] === 'string'),
    );
    // Twilio signs the public URL it called: our origin, the path and the query string.
    const url = `${env().APP_ORIGIN.replace(/\/$/, '')}${new URL(c.req.url).pathname}${new URL(c.req.url).search}`;
    const signature = c.req.header('x-twilio-signature') ?? '';
    if (!twilio.validateRequest(token, signature, url, params)) {
      throw new ApiError(403, ErrorCode.forbidden, 'Api.forbidden');
    }
    const db = await c.var.db();
    if (params.MessageSid && params.MessageStatus) {
      return ok(c, { status: await applyTwilioStatus(db, params.MessageSid, params.MessageStatus, params.ErrorCode) });
    }
    const from = params.From ? parseE164(params.From) : null;
    if (from?.ok && params.Body !== undefined) {
      const optedOut = await applyInboundSms(db, from.value, params.Body);
      return ok(c, { status: optedOut ? 'opted_out' : null });
    }
    return ok(c, { status: null });
  });
