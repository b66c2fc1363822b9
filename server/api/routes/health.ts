import 'server-only';
import { OpenAPIHono, createRoute, z } from '@hono/zod-openapi';
import { sql } from 'drizzle-orm';
import { getDb } from '../../db/client';
import type { AppEnv } from '../context';
import { ApiError, ErrorCode } from '../errors';
import { envelope, errorEnvelope, jsonResponse, ok } from '../respond';

// GET /api_f/v1/health - liveness and database check
const route = createRoute({
  method: 'get',
  path: '/health',
  summary: 'Health: answers 200 when the database answers, 503 otherwise',
  responses: {
    200: jsonResponse(envelope(z.object({ status: z.literal('ok'), database: z.literal('ok') })), 'Healthy'),
    503: jsonResponse(errorEnvelope, 'Database unreachable'),
  },
});

export const health = new OpenAPIHono<AppEnv>().openapi(route, async (c) => {
  try {
    await (await getDb()).execute(sql`select 1`);
  } catch {
    throw new ApiError(503, ErrorCode.unavailable, 'Api.unavailable');
  }
  return ok(c, { status: 'ok' as const, database: 'ok' as const });
});
