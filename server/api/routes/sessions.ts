import 'server-only';
import { OpenAPIHono, createRoute, z } from '@hono/zod-openapi';
import type { AppEnv } from '../context';
import { requireUser } from '../middleware';
import { envelope, errorEnvelope, jsonResponse, ok } from '../respond';

// GET /api_f/v1/admin/userSession/current - the signed-in user's info (used by proxy.ts to validate a cookie)
const currentRoute = createRoute({
  method: 'get',
  path: '/admin/userSession/current',
  summary: 'User info of the session in the `token` cookie or `_chamspy_token` header; 401 code 20012 otherwise',
  middleware: [requireUser] as const,
  responses: {
    200: jsonResponse(
      envelope(z.object({ id: z.string(), email: z.string(), paymentCount: z.number().int() })),
      'User',
    ),
    401: jsonResponse(errorEnvelope, 'No live session'),
  },
});

export const sessionsApi = new OpenAPIHono<AppEnv>().openapi(currentRoute, (c) => {
  const user = c.get('user')!;
  return ok(c, { id: user.id, email: user.email, paymentCount: user.paymentCount });
});
