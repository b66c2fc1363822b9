import 'server-only';
import { OpenAPIHono, createRoute, z } from '@hono/zod-openapi';
import { desc, eq } from 'drizzle-orm';
import { getDb } from '../../db/client';
import { orders, subscriptions } from '../../db/schema';
import { formatMoney } from '../../services/money';
import type { AppEnv } from '../context';
import { requireUser } from '../middleware';
import { envelope, errorEnvelope, jsonResponse, ok } from '../respond';

const orderRow = z.object({
  code: z.string(),
  phone: z.string(),
  status: z.string(),
  amount: z.string().openapi({ description: 'formatted in the request language' }),
  amountMinor: z.number().int(),
  currency: z.string(),
  createdAt: z.string(),
  paidAt: z.string().nullable(),
});
const subscriptionRow = z.object({ status: z.string(), currentPeriodEnd: z.string(), cancelAt: z.string().nullable() });

// GET /api_f/v1/admin/order/status - the subscriber's orders and subscriptions
const route = createRoute({
  method: 'get',
  path: '/admin/order/status',
  summary: "The caller's orders (newest first) and subscriptions (SPEC §7 order list)",
  middleware: [requireUser] as const,
  responses: {
    200: jsonResponse(
      envelope(z.object({ orders: z.array(orderRow), subscriptions: z.array(subscriptionRow) })),
      'Billing',
    ),
    401: jsonResponse(errorEnvelope, 'Not signed in'),
  },
});

export const billingApi = new OpenAPIHono<AppEnv>().openapi(route, async (c) => {
  const db = await getDb();
  const userId = c.get('user')!.id;
  const [orderRows, subscriptionRows] = await Promise.all([
    db.select().from(orders).where(eq(orders.userId, userId)).orderBy(desc(orders.createdAt)).limit(100),
    db.select().from(subscriptions).where(eq(subscriptions.userId, userId)).orderBy(desc(subscriptions.createdAt)),
  ]);
  return ok(c, {
    orders: orderRows.map((o) => ({
      code: o.code,
      phone: o.phoneE164,
      status: o.status,
      amount: formatMoney(o.amountMinor, o.currency, c.get('lang')),
      amountMinor: o.amountMinor,
      currency: o.currency,
      createdAt: o.createdAt.toISOString(),
      paidAt: o.paidAt?.toISOString() ?? null,
    })),
    subscriptions: subscriptionRows.map((s) => ({
      status: s.status,
      currentPeriodEnd: s.currentPeriodEnd.toISOString(),
      cancelAt: s.cancelAt?.toISOString() ?? null,
    })),
  });
});
