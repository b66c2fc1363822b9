import 'server-only';
import { OpenAPIHono, createRoute } from '@hono/zod-openapi';
import { dataLeakReportSchema } from '../../../lib/contracts/data-leaks';
import { dataLeakReport } from '../../services/lookups';
import { consume } from '../../services/rate-limit';
import type { AppEnv } from '../context';
import { requireUser } from '../middleware';
import { SIGNED_OUT, envelope, fails, jsonResponse, ok } from '../respond';

// GET /api_f/v1/account/dataLeaks - the breaches the caller's own account e-mail appears in
const dataLeaksRoute = createRoute({
  method: 'get',
  path: '/account/dataLeaks',
  summary:
    "Data-leak check of the caller's own account e-mail (Have I Been Pwned), never another address: configured=false when the server has no HIBP key; otherwise the breaches, newest first, checked at most once a day per account. 429 over 20 calls an hour; 503 when the breach service fails (never reported as no breaches).",
  middleware: [requireUser] as const,
  responses: {
    200: jsonResponse(envelope(dataLeakReportSchema), 'The report'),
    ...fails({ ...SIGNED_OUT, 429: 'Too many checks', 503: 'The breach service failed; try later' }),
  },
});

/** The data-leak check: `GET /account/dataLeaks`, signed-in subscribers only, rate limited per account. */
export const dataLeaksApi = new OpenAPIHono<AppEnv>().openapi(dataLeaksRoute, async (c) => {
  const userId = c.get('user')!.id;
  await consume('dataLeakChecksPerAccount', userId);
  return ok(c, await dataLeakReport(await c.var.db(), userId));
});
