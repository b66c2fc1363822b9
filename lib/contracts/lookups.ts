import { z } from 'zod';
import { phoneCountry } from './phone';

/**
 * The lookups' contract (`GET /other/location/info/{phone}`, `GET /other/ipInfo`): the schemas the routes answer with
 * (and the OpenAPI document shows), the services' return types and the pages' types, one definition each
 * (docs/decisions/0010-one-contract-per-payload.md).
 */

/** What the number itself tells, from the numbering plan (not the phone's position). */
export const phoneInfoSchema = z.object({
  e164: z.string(),
  valid: z.boolean().meta({
    description: 'true when the number is in an assigned range of the plan; false for a possible but unassigned number',
  }),
  countryCode: z.string().meta({ description: "ISO 3166-1 alpha-2, or '001' when the calling code has none" }),
  countryName: z.string(),
  callingCode: z.string().meta({ description: 'e.g. +34' }),
  nationalNumber: z.string(),
  international: z.string(),
  lineType: z.string().meta({ description: "libphonenumber's type, e.g. MOBILE; UNKNOWN when it has none" }),
  carrier: z.string().nullable(),
  region: z.string().nullable(),
  timeZones: z.array(z.string()),
});
export type PhoneInfo = z.infer<typeof phoneInfoSchema>;

/** `GET /other/location/info/{phone}?country=`: the country a national number is read in (`phoneCountry`). */
export const phoneInfoQuery = z.object({ country: phoneCountry });

/** Approximate area of an IP address; `accuracyRadiusKm` only when the database has one (DB-IP Lite has not). */
export const ipInfoSchema = z.object({
  ip: z.string().nullable(),
  status: z.enum(['found', 'unknown']),
  countryCode: z.string().nullable(),
  region: z.string().nullable(),
  city: z.string().nullable(),
  latitude: z.number().nullable().meta({ description: 'degrees' }),
  longitude: z.number().nullable().meta({ description: 'degrees' }),
  accuracyRadiusKm: z.number().nullable().meta({ description: 'kilometres' }),
});
export type IpInfo = z.infer<typeof ipInfoSchema>;
