import 'server-only';
import { OpenAPIHono, createRoute, z } from '@hono/zod-openapi';
import { isIP } from 'node:net';
import { lookupIp } from '../../services/geoip';
import { PhoneParseError, phoneErrorKey, phoneInfo } from '../../services/phone-info';
import type { AppEnv } from '../context';
import { ApiError, ErrorCode } from '../errors';
import { envelope, errorEnvelope, errorResponses, jsonResponse, ok } from '../respond';

const phoneInfoSchema = z.object({
  e164: z.string(),
  valid: z.boolean(),
  countryCode: z.string(),
  countryName: z.string(),
  callingCode: z.string(),
  nationalNumber: z.string(),
  international: z.string(),
  lineType: z.string(),
  carrier: z.string().nullable(),
  region: z.string().nullable(),
  timeZones: z.array(z.string()),
});

// GET /api_f/v1/other/location/info/{phone} - numbering-plan facts of a number (not its position)
const phoneRoute = createRoute({
  method: 'get',
  path: '/other/location/info/{phone}',
  summary: 'What the number itself tells (docs/rules.md#api phone info); 400 with the error kind for an invalid number',
  request: {
    params: z.object({ phone: z.string().min(1).max(250, 'Validation.phoneTooLong') }),
    query: z.object({
      country: z
        .string()
        .regex(/^[A-Za-z]{2}$/)
        .optional(),
    }),
  },
  responses: {
    200: jsonResponse(envelope(phoneInfoSchema), 'Numbering-plan facts'),
    ...errorResponses,
  },
});

const phoneKindKey: Record<string, string> = {
  invalid_country_code: 'Validation.phoneInvalidCountry',
  too_short: 'Validation.phoneTooShort',
  too_long: 'Validation.phoneTooLong',
};

const ipInfoSchema = z.object({
  ip: z.string().nullable(),
  status: z.enum(['found', 'unknown']),
  countryCode: z.string().nullable(),
  region: z.string().nullable(),
  city: z.string().nullable(),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  accuracyRadiusKm: z.number().nullable(),
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
  responses: {
    200: jsonResponse(envelope(ipInfoSchema), 'IP location'),
    422: jsonResponse(errorEnvelope, 'Not an IP address'),
  },
});

export const lookups = new OpenAPIHono<AppEnv>()
  .openapi(phoneRoute, async (c) => {
    const { phone } = c.req.valid('param');
    const { country } = c.req.valid('query');
    try {
      return ok(c, await phoneInfo(phone, c.get('lang'), country));
    } catch (error) {
      if (error instanceof PhoneParseError) {
        throw new ApiError(
          400,
          ErrorCode.badRequest,
          phoneErrorKey(error, phone, country, phoneKindKey[error.kind] ?? 'Validation.phoneInvalid'),
          {},
          {
            kind: error.kind,
          },
        );
      }
      throw error;
    }
  })
  .openapi(ipRoute, async (c) => {
    const ip = c.req.valid('query').ip ?? c.get('clientIp');
    if (!ip) {
      return ok(c, {
        ip: null,
        status: 'unknown' as const,
        countryCode: null,
        region: null,
        city: null,
        latitude: null,
        longitude: null,
        accuracyRadiusKm: null,
      });
    }
    return ok(c, await lookupIp(ip));
  });
