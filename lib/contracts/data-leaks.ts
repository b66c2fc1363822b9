import { z } from 'zod';

/**
 * The data-leak check's contract (`GET /account/dataLeaks`): the answer once, as zod schemas, for the route
 * (server/api/routes/data-leaks.ts), the service and the breach provider (server/services/lookups/data-leaks.ts,
 * server/providers/breaches.ts) and the page (components/dashboard/data-leaks-view.tsx).
 * docs/decisions/0010-one-contract-per-payload.md.
 */

/** One breach an account e-mail appears in (the fields of Have I Been Pwned's breach model the page shows). */
export const breachSchema = z.object({
  name: z.string().meta({ description: "HIBP's stable name, e.g. Adobe" }),
  title: z.string(),
  domain: z.string().meta({ description: "the breached site's domain; '' when HIBP names none" }),
  breachDate: z.string().meta({ description: 'YYYY-MM-DD' }),
  dataClasses: z.array(z.string()).meta({ description: 'the kinds of data exposed, as HIBP names them' }),
  isVerified: z.boolean(),
  isSensitive: z.boolean(),
});
export type BreachView = z.infer<typeof breachSchema>;

/** `GET /account/dataLeaks`: not configured on this server, or the account e-mail's breaches and when checked. */
export const dataLeakReportSchema = z.union([
  z.object({ configured: z.literal(false) }),
  z.object({
    configured: z.literal(true),
    email: z.string(),
    checkedAt: z.string(),
    breaches: z.array(breachSchema),
  }),
]);
export type DataLeakReport = z.infer<typeof dataLeakReportSchema>;
