/**
 * The API's shapes live with their zod schemas in lib/contracts/, one file per area
 * (docs/decisions/0010-one-contract-per-payload.md); import them from there. These re-exports remain only for the
 * site's sections (components/site), which another change owns now; move those imports and delete this file.
 */
export type { IpInfo, PhoneInfo } from '../contracts/lookups';
export type { PricePlan } from '../contracts/orders';
export type { UsernameLookupView } from '../contracts/username-lookup';
