import 'server-only';
import { OpenAPIHono, createRoute, z } from '@hono/zod-openapi';
import { isIP } from 'node:net';
import { lookupIp, unknownLocation } from '../../services/geoip';
import { ipInfoSchema, phoneInfoSchema } from '../../../lib/contracts/lookups';
import { phoneCountry } from '../../../lib/contracts/phone';
import { phoneInfo } from '../../services/phone-info';
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
    query: z.object({ country: phoneCountry }),
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

export const lookups = new OpenAPIHono<AppEnv>()
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
