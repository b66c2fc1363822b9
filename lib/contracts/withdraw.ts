import { z } from 'zod';

/**
 * The withdrawal function's contract (`/portal/withdraw/*`, `/admin/withdraw/*`; Directive 2011/83/EU Art. 11a; the
 * link request's body is billing.ts `linkRequestBody`): each request body and answer once, as zod schemas. The route validates and documents with them
 * (server/api/routes/withdraw.ts), the services return their types (server/services/billing/withdrawal*.ts) and the page reads
 * them (components/billing/withdraw-flow.tsx). docs/decisions/0010-one-contract-per-payload.md.
 */

/** The path of an e-mailed withdrawal link. */
export const withdrawTokenParams = z.object({ token: z.string().min(20).max(100) });

const confirmFields = {
  code: z.string().min(10).max(64).meta({ description: "the order's code (the contract named on the page)" }),
  timeZone: z
    .string()
    .max(64)
    .optional()
    .meta({ description: "the browser's IANA time zone, for the acknowledgement (e.g. Europe/Madrid)" }),
};

/** `POST /portal/withdraw/confirm`: the link's token and the contract. */
export const linkConfirmBody = z.object({ token: withdrawTokenParams.shape.token, ...confirmFields });

/** `POST /admin/withdraw/confirm`: the contract (signed in). */
export const accountConfirmBody = z.object(confirmFields);

/** Where a contract stands for a withdrawal. */
export const contractStateSchema = z.enum(['open', 'period_ended', 'withdrawn', 'refunded']);
export type ContractState = z.infer<typeof contractStateSchema>;

/** A contract as the confirmation step names it (money formatted in the request language, minor units beside). */
export const contractSchema = z.object({
  code: z.string(),
  reference: z.string(),
  product: z.string(),
  phone: z.string().meta({ description: 'E.164' }),
  paidAt: z.string(),
  trial: z.string().meta({ description: 'what the order paid (the trial), formatted' }),
  monthly: z.string(),
  method: z.enum(['card', 'wallet']),
  subscription: z
    .object({ status: z.enum(['trialing', 'active', 'past_due', 'canceled']), currentPeriodEnd: z.string() })
    .nullable(),
  state: contractStateSchema,
  deadline: z.string().meta({ description: 'the last moment of the 14-day withdrawal period' }),
  rule: z.enum(['full', 'pro_rata']),
  paid: z.string(),
  paidMinor: z.number().int().meta({ description: 'minor units' }),
  refund: z.string().meta({ description: 'what a withdrawal now refunds, formatted' }),
  refundMinor: z.number().int().meta({ description: 'minor units' }),
  currency: z.string(),
  withdrawal: z
    .object({ at: z.string(), refund: z.string(), refundMinor: z.number().int() })
    .nullable()
    .meta({ description: 'the withdrawal already made, if any' }),
});
export type ContractView = z.infer<typeof contractSchema>;

/**
 * `GET /portal/withdraw/link/{token}`: the link's state and the contracts it can withdraw from (only while `usable`).
 * A link ends when used: then only when its withdrawal was made, nothing of the order or the number.
 */
export const withdrawLinkSchema = z.object({
  state: z.enum(['usable', 'used', 'expired', 'unknown']),
  contracts: z.array(contractSchema).meta({ description: 'the contracts, while the link is usable; else empty' }),
  completedAt: z
    .string()
    .nullable()
    .meta({ description: 'when the withdrawal made with this link was confirmed, ISO 8601; null unless used' }),
});
export type WithdrawLink = z.infer<typeof withdrawLinkSchema>;

/** `GET /admin/withdraw/contracts`: the caller's contracts. */
export const contractsSchema = z.object({ contracts: z.array(contractSchema) });
export type Contracts = z.infer<typeof contractsSchema>;

/** The acknowledgement a confirmation answers: the instant (ISO), written in UTC and in the reader's zone. */
export const acknowledgementSchema = z.object({
  reference: z.string(),
  product: z.string(),
  at: z.string().meta({ description: 'the instant of the withdrawal, ISO 8601' }),
  atUtc: z.string(),
  atLocal: z.string().nullable(),
  timeZone: z.string().nullable(),
  rule: z.enum(['full', 'pro_rata']),
  refund: z.string(),
  refundMinor: z.number().int().meta({ description: 'minor units' }),
  method: z.enum(['card', 'wallet']),
  repeated: z.boolean(),
});
export type Acknowledgement = z.infer<typeof acknowledgementSchema>;
