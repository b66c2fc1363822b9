import { z } from 'zod';
import { ORDER_STATES } from '../order-machine';
import { FUNNEL_STAGES } from '../tracking/funnel';
import { consentRecordSchema } from './billing';
import { emailBody } from './fields';
import { e164Output, phoneInput } from './phone';

/**
 * The operator console's contract (docs/decisions/0010-one-contract-per-payload.md): each body, path, query and answer
 * of `/api_f/v1/ops…` once, read by the routes (server/api/routes/ops.ts, `createRoute` and its typed answers), the
 * services (the body types) and the console's tabs (components/ops, `import type` of `OpsAnswers`). Times are ISO 8601
 * strings, amounts integer minor units of `currency` (ISO 4217). Refusals are the API's (docs/rules.md#errors): 422
 * naming the first bad field, 400 with `kind` for a refused number (server/api/phone.ts).
 */

/** Why an operator acted: required for every change, trimmed, 3–500 characters (docs/running.md, the audit log). */
export const opsReason = z
  .string('Validation.invalid')
  .trim()
  .min(3, 'Validation.invalid')
  .max(500, 'Validation.invalid')
  .meta({ description: 'why the operator acts, 3–500 characters; written to the audit log' });

/** `POST /ops/session`: e-mail, password and the authenticator's current code (6 digits, RFC 6238, a space allowed). */
export const opsSignInBody = z.object({
  email: emailBody,
  password: z.string('Validation.passwordRequired').min(1, 'Validation.passwordRequired').max(200),
  code: z
    .string('Validation.codeRequired')
    .trim()
    .regex(/^\d{3} ?\d{3}$/, 'Validation.codeLength')
    .meta({ description: 'TOTP code, 6 digits' }),
});
export type OpsSignInBody = z.infer<typeof opsSignInBody>;

/** The body of every change but an opt-out and a reply: its reason. */
export const opsReasonBody = z.object({ reason: opsReason });
export type OpsReasonBody = z.infer<typeof opsReasonBody>;

/**
 * `POST /ops/opt-outs`: a number as typed (international, the `+` optional: `asInternational`) and the reason. The
 * route parses it with the API's parser (`e164Of`): a refused number answers 400 with its `kind`.
 */
export const opsOptOutBody = z.object({ phone: phoneInput, reason: opsReason });
export type OpsOptOutBody = z.infer<typeof opsOptOutBody>;

/** `POST /ops/support/{id}/reply`: the reply's text, trimmed, 1–5000 characters (sent as plain text). */
export const opsReplyBody = z.object({
  reply: z.string('Validation.messageRequired').trim().min(1, 'Validation.messageRequired').max(5000),
});
export type OpsReplyBody = z.infer<typeof opsReplyBody>;

/** The `{id}` of an order, an outbox message or a support message: a UUID (else 422 naming `id`, as the API). */
export const opsIdParams = z.object({ id: z.uuid() });

/** The `{phone}` of `DELETE /ops/opt-outs/{phone}`: a listed number, %-encoded, read as the body's `phone`. */
export const opsPhoneParams = z.object({ phone: phoneInput });

/**
 * `GET /ops/orders?q=`: an order code or reference, part of an e-mail or a number; absent or empty lists the newest
 * orders. Only its first 200 characters are searched (server/services/ops/orders.ts).
 */
export const opsOrdersQuery = z.object({ q: z.string().optional() });

/** `GET /ops/funnel?days=`: the days the report covers, 1–90, 7 when absent. */
export const opsFunnelQuery = z.object({ days: z.coerce.number().int().min(1).max(90).default(7) });

/**
 * A number as the console reads it: international, the `+` optional (`34612345678` is `+34612345678`), since an
 * operator copies numbers from anywhere. The result then goes through the API's parser (`parseE164`).
 */
export function asInternational(input: string): string {
  const trimmed = input.trim();
  return trimmed.startsWith('+') ? trimmed : `+${trimmed}`;
}

const time = z.string().meta({ description: 'ISO 8601' });

/** The signed-in operator (`GET`/`POST /ops/session`). */
export const opsOperatorSchema = z.object({ email: z.string() });

/** One order of the search, with its subscriptions, refund, withdrawal and the proof of consent to the subscription. */
export const opsOrderSchema = z.object({
  id: z.string(),
  code: z.string(),
  reference: z.string().meta({ description: 'what the customer quotes, e.g. CH-7K4M-2Q' }),
  email: z.string(),
  phoneE164: e164Output,
  status: z.enum(ORDER_STATES),
  amountMinor: z.number().int(),
  currency: z.string(),
  provider: z.string(),
  createdAt: time,
  paidAt: time.nullable(),
  refundedAt: time.nullable(),
  userId: z.string().nullable(),
  subscriptions: z.array(
    z.object({
      id: z.string(),
      orderId: z.string().nullable(),
      status: z.enum(['trialing', 'active', 'past_due', 'canceled']),
      currentPeriodEnd: time,
      cancelAt: time.nullable(),
      canceledAt: time.nullable(),
    }),
  ),
  refund: z.object({ orderId: z.string(), amountMinor: z.number().int(), createdAt: time }).nullable(),
  withdrawal: z
    .object({
      orderId: z.string(),
      withdrawnAt: time,
      via: z.enum(['email_link', 'account']),
      ip: z.string().nullable(),
      userAgent: z.string().nullable(),
      timeZone: z.string().nullable(),
      rule: z.enum(['full', 'pro_rata']),
      paidMinor: z.number().int(),
      refundMinor: z.number().int(),
    })
    .nullable()
    .meta({ description: "the buyer's withdrawal from the contract, null when none" }),
  subscriptionConsent: consentRecordSchema.nullable(),
});
export type OpsOrder = z.infer<typeof opsOrderSchema>;

/** `GET /ops/orders`: newest first, at most 50. */
export const opsOrdersSchema = z.object({ orders: z.array(opsOrderSchema) });

/** `POST /ops/orders/{id}/refund`: the refund made (or the one an earlier call made: `repeated`). */
export const opsRefundedSchema = z.object({
  refunded: z.literal(true),
  repeated: z.boolean(),
  amountMinor: z.number().int(),
});

/** `POST /ops/orders/{id}/cancel`: when each cancelled subscription ends. */
export const opsCanceledSchema = z.object({ cancelAt: z.array(time) });

/** `GET /ops/abuse`: the owners' reports (newest first, at most 100) and the opt-out list (at most 500). */
export const opsAbuseSchema = z.object({
  reports: z.array(
    z.object({
      id: z.string(),
      requestId: z.string(),
      targetE164: e164Output.nullable(),
      reportedAt: time,
      reason: z.string().nullable().meta({ description: "the owner's reason, at most 140 characters" }),
      buyerEmail: z.string().nullable(),
      requestStatus: z.string().nullable(),
    }),
  ),
  optOuts: z.array(
    z.object({
      phoneE164: e164Output,
      reason: z.enum(['report', 'stop', 'operator']),
      note: z.string().nullable().meta({ description: "an operator's reason" }),
      requestId: z.string().nullable(),
      createdAt: time,
    }),
  ),
});
export type OpsAbuse = z.infer<typeof opsAbuseSchema>;

/** `POST /ops/opt-outs`: the number as stored; `added: false` when it was listed already (its first reason kept). */
export const opsOptOutAddedSchema = z.object({ phoneE164: e164Output, added: z.boolean() });

/** `DELETE /ops/opt-outs/{phone}`: the number removed. */
export const opsOptOutRemovedSchema = z.object({ phoneE164: e164Output });

/** `GET /ops/messages`: e-mails and SMS that failed or wait for a retry (newest first, at most 200), never a body. */
export const opsMessagesSchema = z.object({
  messages: z.array(
    z.object({
      id: z.string(),
      channel: z.enum(['email', 'sms', 'push']),
      recipient: z.string(),
      template: z.string().nullable(),
      subject: z.string().nullable(),
      status: z.enum(['queued', 'sent', 'delivered', 'failed', 'sending']),
      attempts: z.number().int(),
      lastError: z.string().nullable(),
      nextAttemptAt: time.nullable(),
      redacted: z.boolean().meta({ description: 'its secrets were removed; a retry sends it without them' }),
      createdAt: time,
    }),
  ),
});
export type OpsMessage = z.infer<typeof opsMessagesSchema>['messages'][number];

/** `POST /ops/messages/{id}/retry`: queued again for a new round of attempts. */
export const opsQueuedSchema = z.object({ queued: z.literal(true) });

/** `GET /ops/support`: contact-form messages, newest first (at most 200). */
export const opsSupportSchema = z.object({
  messages: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      email: z.string(),
      message: z.string(),
      locale: z.string(),
      ip: z.string().nullable(),
      createdAt: time,
      repliedAt: time.nullable(),
    }),
  ),
});
export type OpsSupportMessage = z.infer<typeof opsSupportSchema>['messages'][number];

/** `POST /ops/support/{id}/reply`: the reply is queued for e-mail. */
export const opsSentSchema = z.object({ sent: z.literal(true) });

/** `GET /ops/funnel`: visitors per stage (FUNNEL_STAGES), locale and channel, most visits first. */
export const opsFunnelSchema = z.object({
  days: z.number().int(),
  rows: z.array(
    z.object({
      locale: z.string(),
      channel: z.string(),
      counts: z.record(z.enum(FUNNEL_STAGES), z.number().int()),
    }),
  ),
});

/** `GET /ops/audit`: the newest entries of the append-only audit log (at most 200). */
export const opsAuditSchema = z.object({
  entries: z.array(
    z.object({
      id: z.number().int(),
      operatorId: z.string().nullable(),
      operatorEmail: z.string(),
      action: z.string().meta({ description: 'e.g. sign_in, order.refund, opt_out.add' }),
      targetType: z.string().nullable(),
      targetId: z.string().nullable(),
      reason: z.string().nullable(),
      detail: z.record(z.string(), z.unknown()).nullable().meta({ description: 'what changed; never a secret' }),
      createdAt: time,
    }),
  ),
});

/** `DELETE /ops/session`: signed out. */
export const opsSignedOutSchema = z.object({ signedOut: z.literal(true) });

/**
 * What each console call answers (the envelope's `obj`), keyed by method and path as the routes declare them (under
 * `/api_f/v1/ops`): the one pairing of a path with its answer. The routes document their 200 answer from it and the
 * console's client (components/ops/parts.tsx `opsCall`) types what it reads with `OpsAnswers`;
 * tests/ops-contract.test.ts checks that the keys are exactly the console's routes.
 */
export const OPS_ANSWERS = {
  'GET /session': opsOperatorSchema,
  'POST /session': opsOperatorSchema,
  'DELETE /session': opsSignedOutSchema,
  'GET /orders': opsOrdersSchema,
  'POST /orders/{id}/refund': opsRefundedSchema,
  'POST /orders/{id}/cancel': opsCanceledSchema,
  'GET /abuse': opsAbuseSchema,
  'POST /opt-outs': opsOptOutAddedSchema,
  'DELETE /opt-outs/{phone}': opsOptOutRemovedSchema,
  'GET /messages': opsMessagesSchema,
  'POST /messages/{id}/retry': opsQueuedSchema,
  'GET /support': opsSupportSchema,
  'POST /support/{id}/reply': opsSentSchema,
  'GET /funnel': opsFunnelSchema,
  'GET /audit': opsAuditSchema,
} as const;

/** A console call: `METHOD /path` as OPS_ANSWERS keys it. */
export type OpsCall = keyof typeof OPS_ANSWERS;

/** The answer (`obj`) of each console call. */
export type OpsAnswers = { [K in OpsCall]: z.infer<(typeof OPS_ANSWERS)[K]> };

/** What each console call takes as its JSON body (none for the others). */
export type OpsBodies = {
  'POST /session': OpsSignInBody;
  'POST /orders/{id}/refund': OpsReasonBody;
  'POST /orders/{id}/cancel': OpsReasonBody;
  'POST /opt-outs': OpsOptOutBody;
  'DELETE /opt-outs/{phone}': OpsReasonBody;
  'POST /messages/{id}/retry': OpsReasonBody;
  'POST /support/{id}/reply': OpsReplyBody;
};
