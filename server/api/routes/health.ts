import 'server-only';
import { OpenAPIHono, createRoute, z } from '@hono/zod-openapi';
import { Hono } from 'hono';
import { sql } from 'drizzle-orm';
import { getDb } from '../../db/client';
import { env } from '../../env';
import { metrics, metricsAuthorized } from '../../observability/metrics';
import type { AppEnv } from '../context';
import { ApiError, ErrorCode } from '../errors';
import { envelope, errorEnvelope, jsonResponse, ok } from '../respond';

const queueSchema = z.object({
  /** Jobs waiting to run (created or waiting for a retry), all queues. */
  depth: z.number().int(),
  /** Age of the oldest waiting job that is due, seconds; 0 when none. */
  oldestJobAgeSeconds: z.number(),
  /** Jobs running now. */
  active: z.number().int(),
});

// GET /api_f/v1/health - liveness, database and job queue
const route = createRoute({
  method: 'get',
  path: '/health',
  summary:
    'Health (issue 16 §4): 200 when the database answers, with the job queue depth, the age of its oldest due job (s) and the running jobs; 503 otherwise',
  responses: {
    200: jsonResponse(
      envelope(z.object({ status: z.literal('ok'), database: z.literal('ok'), queue: queueSchema })),
      'Healthy',
    ),
    503: jsonResponse(errorEnvelope, 'Database unreachable'),
  },
});

/**
 * The pg-boss queue's waiting and running jobs (schema `pgboss`, pg-boss 10). Before pg-boss has created its schema
 * (no worker started yet) the queue is reported empty.
 */
async function queueState(): Promise<z.infer<typeof queueSchema>> {
  const db = await getDb();
  const [exists] = (await db.execute(sql`select to_regclass('pgboss.job') is not null as present`)).rows as {
    present: boolean;
  }[];
  if (!exists?.present) return { depth: 0, oldestJobAgeSeconds: 0, active: 0 };
  const [row] = (
    await db.execute(sql`
      select count(*) filter (where state in ('created', 'retry'))::int as depth,
             count(*) filter (where state = 'active')::int as active,
             coalesce(extract(epoch from now() - min(start_after) filter (
               where state in ('created', 'retry') and start_after <= now())), 0)::float8 as oldest
        from pgboss.job`)
  ).rows as { depth: number; active: number; oldest: number }[];
  return { depth: row.depth, active: row.active, oldestJobAgeSeconds: Math.round(row.oldest * 10) / 10 };
}

export const health = new OpenAPIHono<AppEnv>().openapi(route, async (c) => {
  let queue: z.infer<typeof queueSchema>;
  try {
    await (await getDb()).execute(sql`select 1`);
    queue = await queueState();
  } catch {
    throw new ApiError(503, ErrorCode.unavailable, 'Api.unavailable');
  }
  return ok(c, { status: 'ok' as const, database: 'ok' as const, queue });
});

/**
 * `GET /api_f/v1/metrics` (issue 16 §4): this process's Prometheus metrics (text exposition format) for a caller
 * presenting `Authorization: Bearer METRICS_TOKEN`; 401 otherwise, 404 when METRICS_TOKEN is unset. Not in the
 * OpenAPI document.
 */
export const metricsApi = new Hono<AppEnv>().get('/metrics', async (c) => {
  const token = env().METRICS_TOKEN;
  if (!token) throw new ApiError(404, ErrorCode.notFound, 'Api.notFound');
  if (!metricsAuthorized(c.req.header('authorization'), token)) {
    throw new ApiError(401, ErrorCode.sessionInvalid, 'Api.notLoggedIn');
  }
  const { registry } = metrics();
  return c.body(await registry.metrics(), 200, { 'content-type': registry.contentType, 'cache-control': 'no-store' });
});
