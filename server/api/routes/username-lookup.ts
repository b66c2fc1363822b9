import 'server-only';
import { OpenAPIHono, createRoute } from '@hono/zod-openapi';
import { enqueueUsernameCheck } from '../../jobs/boss';
import { consume, giveBack, RateLimitedError } from '../../services/rate-limit';
import { sha256 } from '../../services/tokens';
import { createLookup, lookupView, stopLookup } from '../../services/lookups';
import type { AppEnv } from '../context';
import { BAD_INPUT, created, envelope, fails, jsonResponse, ok } from '../respond';
import {
  lookupIdParams,
  startLookupBody,
  startedLookupSchema,
  usernameLookupSchema,
} from '../../../lib/contracts/username-lookup';
import { bodyOf, readBody } from '../validation';

// POST /api_f/v1/usernameLookup - starts a reverse username lookup
const startRoute = createRoute({
  method: 'post',
  path: '/usernameLookup',
  summary:
    'Starts a reverse username lookup over the WhatsMyName site list (adult sites only with nsfw=true): 201 with the result id (unguessable, kept an hour) and the number of sites. 422 for a username that is empty, over 64 characters, without a letter or digit (so never a dot segment such as `..`), an e-mail address, a phone number or of other characters; 429 over USERNAME_LOOKUPS_PER_IP_PER_HOUR per client (an IPv4 address, an IPv6 /64), and 429 `Api.lookupBusy` (Retry-After) when the sites of the lookup do not fit in what is left of the hourly service-wide USERNAME_LOOKUP_FETCHES_PER_HOUR.',
  request: { body: bodyOf(startLookupBody) },
  responses: {
    201: jsonResponse(envelope(startedLookupSchema), 'Started; poll GET /usernameLookup/{id}'),
    ...fails(BAD_INPUT),
  },
});

// GET /api_f/v1/usernameLookup/{id} - progress and the sites found so far
const viewRoute = createRoute({
  method: 'get',
  path: '/usernameLookup/{id}',
  summary:
    'A lookup: status, sites checked of total, unknown answers and the profiles found so far (404 after its hour)',
  request: { params: lookupIdParams },
  responses: {
    200: jsonResponse(envelope(usernameLookupSchema), 'The lookup'),
    ...fails({ 404: 'Unknown or expired' }),
  },
});

// POST /api_f/v1/usernameLookup/{id}/stop - the visitor stops a running lookup
const stopRoute = createRoute({
  method: 'post',
  path: '/usernameLookup/{id}/stop',
  summary: 'Stops a running lookup (no more sites are asked; the answers so far stay); a finished lookup is unchanged',
  request: { params: lookupIdParams },
  responses: {
    200: jsonResponse(envelope(usernameLookupSchema), 'The lookup as stopped'),
    ...fails({ 404: 'Unknown or expired' }),
  },
});

/**
 * The reverse username lookup: start (rate limited per client, within the service-wide hourly budget;
 * a start refused as busy gives the client its try back), progress, stop. Public.
 */
export const usernameLookupApi = new OpenAPIHono<AppEnv>()
  .openapi(startRoute, async (c) => {
    const body = readBody(c, startLookupBody);
    const client = c.get('clientIp') ?? 'unknown';
    await consume('usernameLookupsPerIp', client);
    const { id, total } = await createLookup(await c.var.db(), body.username, body.nsfw).catch(
      async (error: unknown) => {
        if (error instanceof RateLimitedError) await giveBack('usernameLookupsPerIp', client);
        throw error;
      },
    );
    await enqueueUsernameCheck(sha256(id));
    return created(c, { id, total });
  })
  .openapi(viewRoute, async (c) => ok(c, await lookupView(await c.var.db(), c.req.valid('param').id)))
  .openapi(stopRoute, async (c) => ok(c, await stopLookup(await c.var.db(), c.req.valid('param').id)));
