import 'server-only';
import { OpenAPIHono, createRoute } from '@hono/zod-openapi';
import { storeContactMessage } from '../../services/contact';
import { consume } from '../../services/rate-limit';
import type { AppEnv } from '../context';
import { BAD_INPUT, envelope, fails, jsonResponse, ok } from '../respond';
import { contactBody as body } from '../../../lib/contracts/contact';
import { linkSentSchema } from '../../../lib/contracts/billing';
import { bodyOf, readBody } from '../validation';

// POST /api_f/v1/other/contact - a message from the contact form
const route = createRoute({
  method: 'post',
  path: '/other/contact',
  summary:
    'Contact form (/contact-us): stores the message and e-mails support through the outbox (English). 5 messages per IP per hour (429 with Retry-After).',
  request: { body: bodyOf(body) },
  responses: { 200: jsonResponse(envelope(linkSentSchema), 'Stored'), ...fails(BAD_INPUT) },
});

export const contactApi = new OpenAPIHono<AppEnv>().openapi(route, async (c) => {
  const input = readBody(c, body);
  const ip = c.get('clientIp');
  await consume('contactPerIp', ip ?? 'unknown');
  const db = await c.var.db();
  await storeContactMessage(db, input, ip);
  return ok(c, { sent: true as const });
});
