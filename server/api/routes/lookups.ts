import 'server-only';
import { OpenAPIHono, createRoute, z } from '@hono/zod-openapi';
import { isIP } from 'node:net';
import { lookupIp, unknownLocation } from '../../services/geoip';
import { ipInfoSchema, phoneInfoQuery, phoneInfoSchema } from '../../../lib/contracts/lookups';
import { placeLabelsQuery, placeLabelsSchema } from '../../../lib/contracts/places';
import { placeLabels } from '../../services/locate';
import { phoneInfo } from '../../services/lookups';
import type { AppEnv } from '../context';
import { e164Of } from '../phone';
import { BAD_INPUT, envelope, fails, jsonResponse, ok } from '../respond';

// GET /api_f/v1/other/location/info/{phone} - numbering-plan facts of a number (not its position)
const phoneRoute = createRoute({
  method: 'get',
  path: '/other/location/info/{phone}',
  summary: 'What the number itself tells (docs/rules.md#api phone info); 400 with the error kind for an invalid number',
  request: {
    params: z.object({ phone: z.string().min(1).max(250, 'Validation.phoneTooLong') }),
    query: phoneInfoQuery,
  },
  responses: { 200: jsonResponse(envelope(phoneInfoSchema), 'Numbering-plan facts'), ...fails(BAD_INPUT) },
});

// GET /api_f/v1/other/ipInfo - approximate location of the caller's IP (or of `ip`) from the offline MMDB
const ipRoute = createRoute({
  method: 'get',
  path: '/other/ipInfo',
  summary: "The caller's IP (or `ip`) and its approximate area; private addresses answer status 'unknown'",
  request: {
    query: z.object({
      ip: z
        .string()
        .refine((v) => isIP(v) !== 0, 'Validation.ipInvalid')
        .optional(),
    }),
  },
  responses: { 200: jsonResponse(envelope(ipInfoSchema), 'IP location'), ...fails({ 422: 'Not an IP address' }) },
});

// GET /api_f/v1/other/places - the gazetteer's places to label a block of map tiles with, for maps without tiles
const placesRoute = createRoute({
  method: 'get',
  path: '/other/places',
  summary:
    'Places of the offline gazetteer (GeoNames, CC BY 4.0) to label the map tiles x0…x1 × y0…y1 at zoom z (9–18, at most 48 tiles), at most one per 128 × 40 px; what the maps draw on their built-in base map when tiles cannot load. Public and cached a day: the same data for everyone',
  request: { query: placeLabelsQuery },
  responses: { 200: jsonResponse(envelope(placeLabelsSchema), 'Place labels'), ...fails(BAD_INPUT) },
});

export const lookups = new OpenAPIHono<AppEnv>()
  .openapi(placesRoute, async (c) => {
    // The gazetteer only changes with a release; a view asks the same block again as it is panned back and forth.
    c.header('Cache-Control', 'public, max-age=86400');
    return ok(c, await placeLabels(c.req.valid('query')));
  })
  .openapi(phoneRoute, async (c) => {
    const { phone } = c.req.valid('param');
    const { country } = c.req.valid('query');
    return ok(c, await phoneInfo(e164Of(phone, country), c.get('lang')));
  })
  .openapi(ipRoute, async (c) => {
    const ip = c.req.valid('query').ip ?? c.get('clientIp');
    if (!ip) {
      return ok(c, unknownLocation(null));
    }
    return ok(c, await lookupIp(ip));
  });
