import 'server-only';
import { OpenAPIHono, createRoute } from '@hono/zod-openapi';
import { outboxMessagesSchema } from '../../../lib/contracts/outbox';
import { devOutboxEnabled } from '../../env';
import { latestOutboundMessages } from '../../services/messaging';
import type { AppEnv } from '../context';
import { notFound } from '../errors';
import { envelope, fails, jsonResponse, ok } from '../respond';

// GET /api_f/v1/dev/outbox - messages stored by the outbox providers (only while DEV_OUTBOX allows; 404 otherwise)
const route = createRoute({
  method: 'get',
  path: '/dev/outbox',
  summary: 'Development: the newest 100 e-mails and SMS stored by the outbox providers',
  responses: {
    200: jsonResponse(envelope(outboxMessagesSchema), 'Messages'),
    ...fails({ 404: 'Disabled' }),
  },
});

export const devApi = new OpenAPIHono<AppEnv>().openapi(route, async (c) => {
  if (!devOutboxEnabled()) throw notFound();
  const rows = await latestOutboundMessages(await c.var.db(), 100);
  return ok(
    c,
    rows.map((r) => ({
      id: r.id,
      channel: r.channel,
      recipient: r.recipient,
      subject: r.subject,
      body: r.body,
      status: r.status,
      createdAt: r.createdAt.toISOString(),
    })),
  );
});
