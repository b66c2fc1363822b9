import 'server-only';
import { OpenAPIHono, createRoute, z } from '@hono/zod-openapi';
import { Hono } from 'hono';
import { env } from '../../env';
import { metrics, metricsAuth } from '../../observability/metrics';
import { pingDatabase, queueState, type QueueState } from '../../services/health';
import { liveHub } from '../../services/locate';
import { isDraining } from '../../lifecycle';
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
    "Health: 200 when the database answers, with the job queue depth, the age of its oldest due job (s) and the running jobs, whether this process's live hub hears the live broker's notices (`deaf`: a transaction pooler in the way, or Redis not answering; streams poll meanwhile) and which engine the broker runs on (`postgres` or `redis`, REDIS_URL); 503 otherwise",
  responses: {
    200: jsonResponse(
      envelope(
        z.object({
          status: z.literal('ok'),
          database: z.literal('ok'),
          queue: queueSchema,
          live: z.enum(['idle', 'checking', 'hearing', 'deaf']),
          broker: z.enum(['postgres', 'redis']),
        }),
      ),
      'Healthy',
    ),
    ...fails({ 503: 'Database unreachable' }),
  },
});

const liveRoute = createRoute({
  method: 'get',
  path: '/health/live',
  summary:
    'Liveness: 200 while the process runs and answers, whatever the database (Kubernetes docs, "Configure Liveness, Readiness and Startup Probes": a liveness failure restarts the container, so it must not depend on anything else)',
  responses: { 200: jsonResponse(envelope(z.object({ status: z.literal('ok') })), 'Alive') },
});

const readyRoute = createRoute({
  method: 'get',
  path: '/health/ready',
  summary:
    'Readiness: 200 when this process takes new requests (the database answers); 503 while it shuts down (after SIGTERM, server/lifecycle.ts) or when the database does not answer, so a balancer sends nothing new here',
  responses: {
    200: jsonResponse(envelope(z.object({ status: z.literal('ready') })), 'Ready'),
    ...fails({ 503: 'Shutting down, or the database does not answer' }),
  },
});

/**
 * `GET /api_f/v1/health` (the database, the job queue and the live hub), `GET /api_f/v1/health/live` (liveness: the
 * process answers) and `GET /api_f/v1/health/ready` (readiness: 503 while draining after SIGTERM or without the
 * database). Errors: 503 `Api.unavailable` in the envelope.
 */
export const health = new OpenAPIHono<AppEnv>()
  .openapi(liveRoute, (c) => {
    c.header('Cache-Control', 'no-store');
    return ok(c, { status: 'ok' as const });
  })
  .openapi(readyRoute, async (c) => {
    c.header('Cache-Control', 'no-store');
    if (isDraining()) throw new ApiError(503, ErrorCode.unavailable, 'Api.unavailable');
    try {
      await pingDatabase(await c.var.db());
    } catch {
      throw new ApiError(503, ErrorCode.unavailable, 'Api.unavailable');
    }
    return ok(c, { status: 'ready' as const });
  })
  .openapi(route, async (c) => {
    let queue: QueueState;
    try {
      const db = await c.var.db();
      await pingDatabase(db);
      queue = await queueState(db);
    } catch {
      throw new ApiError(503, ErrorCode.unavailable, 'Api.unavailable');
    }
    return ok(c, {
      status: 'ok' as const,
      database: 'ok' as const,
      queue,
      live: liveHub().hearing,
      broker: liveHub().engine,
    });
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
