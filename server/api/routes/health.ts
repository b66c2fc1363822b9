import 'server-only';
import { OpenAPIHono, createRoute, z } from '@hono/zod-openapi';
import { Hono } from 'hono';
import { env } from '../../env';
import { metrics, metricsAuth } from '../../observability/metrics';
import { pingDatabase, queueState, type QueueState } from '../../services/health';
import { liveHub } from '../../services/live-hub';
import type { AppEnv } from '../context';
import { ApiError, ErrorCode } from '../errors';
import { envelope, fails, jsonResponse, ok } from '../respond';

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
    "Health: 200 when the database answers, with the job queue depth, the age of its oldest due job (s) and the running jobs, and whether this process's live hub hears the database's notifications (`deaf`: a transaction pooler in the way; streams poll meanwhile); 503 otherwise",
  responses: {
    200: jsonResponse(
      envelope(
        z.object({
          status: z.literal('ok'),
          database: z.literal('ok'),
          queue: queueSchema,
          live: z.enum(['idle', 'checking', 'hearing', 'deaf']),
        }),
      ),
      'Healthy',
    ),
    ...fails({ 503: 'Database unreachable' }),
  },
});

export const health = new OpenAPIHono<AppEnv>().openapi(route, async (c) => {
  let queue: QueueState;
  try {
    const db = await c.var.db();
    await pingDatabase(db);
    queue = await queueState(db);
  } catch {
    throw new ApiError(503, ErrorCode.unavailable, 'Api.unavailable');
  }
  return ok(c, { status: 'ok' as const, database: 'ok' as const, queue, live: liveHub().hearing });
});

/**
 * `GET /api_f/v1/metrics`: this process's Prometheus metrics (text exposition format) for a caller
 * presenting `Authorization: Bearer METRICS_TOKEN` (hono/bearer-auth); 401 otherwise, 404 when METRICS_TOKEN is unset. Not in the
 * OpenAPI document.
 */
export const metricsApi = new Hono<AppEnv>().get(
  '/metrics',
  async (c, next) => {
    const token = env().METRICS_TOKEN;
    if (!token) throw new ApiError(404, ErrorCode.notFound, 'Api.notFound');
    return metricsAuth(token, () => {
      throw new ApiError(401, ErrorCode.sessionInvalid, 'Api.notLoggedIn');
    })(c, next);
  },
  async (c) => {
    const { registry } = metrics();
    return c.body(await registry.metrics(), 200, { 'content-type': registry.contentType, 'cache-control': 'no-store' });
  },
);
