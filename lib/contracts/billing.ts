import { z } from 'zod';
import { emailBody, localeBody } from './fields';
import { BUYER_ORDER_STATES } from '../order-machine';

/**
 * The Billing tab's contract (`/admin/order/*`, `/admin/user/cancelSubscribe`, `/admin/user/subscriptionConsents`,
 * `/admin/user/consentReceipts`, `/other/user/property`): each request body and answer once, as zod schemas. The
 * routes validate and document with them (server/api/routes/billing.ts) and build their answers to these types; the
 * pages read the same types (components/dashboard/billing-view.tsx, components/dashboard/consent-receipts.tsx). docs/decisions/0010-one-contract-per-payload.md.
 */

/** The body of the refund calls: one of the caller's orders by its code. */
export const orderCodeBody = z.object({ code: z.string().min(10).max(64) });

/** One of the caller's orders as Billing lists it. */
export const billingOrderSchema = z.object({
  code: z.string().meta({ description: 'the random order code (the key of refund calls)' }),
  reference: z.string().meta({ description: 'the short order reference people read, e.g. CH-7K4M-2Q' }),
  phone: z.string().meta({ description: 'E.164' }),
  status: z.enum(BUYER_ORDER_STATES),
  amount: z.string().meta({ description: 'formatted in the request language' }),
  amountMinor: z.number().int().meta({ description: 'minor units' }),
  currency: z.string().meta({ description: 'ISO 4217' }),
  method: z.enum(['card', 'wallet']),
  card: z.string().nullable().meta({ description: 'last four digits of the card that paid' }),
  cardBrand: z.string().nullable().meta({ description: "the card's scheme as Stripe names it (lib/card-brand.ts)" }),
  createdAt: z.string(),
  paidAt: z.string().nullable(),
  refundReason: z.enum(['unconsented_trial', 'withdrawal', 'requested']).nullable().meta({
    description:
      'why a refunded order was refunded: automatically (nothing was shared in the trial), a withdrawal from the contract, or a refund asked for; null when not refunded',
  }),
  withdrawable: z.boolean().meta({
    description:
      "a withdrawal from this order's contract can be made now: paid, within the 14-day period, neither withdrawn from nor refunded (server/services/billing/withdrawals.ts)",
  }),
  withdrawn: z
    .object({
      at: z.string().meta({ description: 'when the withdrawal was made, ISO 8601' }),
      refund: z.string().meta({ description: 'what it refunded, formatted in the request language' }),
      refundMinor: z.number().int().meta({ description: 'minor units' }),
    })
    .nullable()
    .meta({ description: 'the withdrawal from this contract already made; null when none' }),
});
export type BillingOrder = z.infer<typeof billingOrderSchema>;

/** One of the caller's subscriptions as Billing lists it. */
export const billingSubscriptionSchema = z.object({
  status: z.enum(['trialing', 'active', 'past_due', 'canceled']),
  currentPeriodEnd: z.string(),
  cancelAt: z.string().nullable(),
  nextBillingAt: z.string().nullable().meta({ description: 'null when no further charge will be made' }),
  monthlyAmount: z.string(),
  geolocations: z.number().int().meta({ description: 'location requests a billing period' }),
  orderCode: z.string(),
});
export type BillingSubscription = z.infer<typeof billingSubscriptionSchema>;

/** `GET /admin/order/status`: the caller's orders (newest first) and subscriptions. */
export const billingViewSchema = z.object({
  orders: z.array(billingOrderSchema),
  subscriptions: z.array(billingSubscriptionSchema),
});
export type BillingView = z.infer<typeof billingViewSchema>;

/** `POST /admin/order/refundDetail`: may this order be refunded, and how much. */
export const refundInfoSchema = z.object({
  eligible: z.boolean(),
  reason: z.enum(['eligible', 'already_refunded', 'not_paid', 'window_passed', 'service_performed', 'withdrawn']),
  amount: z.string(),
  amountMinor: z.number().int().meta({ description: 'minor units' }),
  deadline: z.string().nullable(),
  businessDays: z.string().meta({ description: 'how long a card refund takes: "7-10"' }),
  method: z
    .enum(['card', 'wallet'])
    .meta({ description: 'how the order was paid: a wallet refund goes to the wallet' }),
  message: z.string().meta({
    description:
      'why it is refused, localized; after a share, also what a withdrawal from the contract would still refund and until when; empty when eligible',
  }),
});
export type RefundInfo = z.infer<typeof refundInfoSchema>;

/** `POST /admin/order/refund`: the amount refunded, and whether this call repeated an earlier refund. */
export const refundResultSchema = z.object({ amount: z.string(), repeated: z.boolean() });
export type RefundResult = z.infer<typeof refundResultSchema>;

/** `PUT /admin/user/cancelSubscribe`: when each cancelled subscription ends (empty: nothing to cancel). */
export const cancelResultSchema = z.object({ cancelAt: z.array(z.string()) });
export type CancelResult = z.infer<typeof cancelResultSchema>;

/** `GET /other/user/property`: the caller's transaction info for the help chat (docs/rules.md#api). */
export const userPropertySchema = z.object({
  email: z.string(),
  paymentCount: z.number().int(),
  subscriptionStatus: z.string().nullable(),
  lastOrder: z.string().nullable(),
  lastAmount: z.string().nullable(),
  lastPaidAt: z.string().nullable(),
});
export type UserProperty = z.infer<typeof userPropertySchema>;

/**
 * One record of consent to a subscription as stored (`GET /admin/user/subscriptionConsents`, deprecated for buyers in
 * favour of `consentReceiptSchema`; the operators' console shows it).
 */
export const consentRecordSchema = z.object({
  orderId: z.string(),
  email: z.string(),
  locale: z.string(),
  termsVersion: z.string().meta({ description: 'terms-of-use@<12 hex of the SHA-256 of the terms of use shown>' }),
  termsText: z.string().meta({ description: 'the terms the pay step showed, one statement a line' }),
  termsSha256: z.string(),
  trialPriceMinor: z.number().int().meta({ description: 'minor units' }),
  monthlyPriceMinor: z.number().int().meta({ description: 'minor units' }),
  currency: z.string(),
  startNow: z.boolean(),
  ip: z.string().nullable(),
  userAgent: z.string().nullable(),
  agreedAt: z.string(),
});
export type ConsentRecord = z.infer<typeof consentRecordSchema>;

/** An amount of money for programs: a decimal string in major units (`"0.50"`) and its ISO 4217 currency. */
export const decimalMoneySchema = z.object({
  amount: z.string().meta({ description: "major units as a decimal string, the currency's own decimals: '0.50'" }),
  currency: z.string().meta({ description: 'ISO 4217' }),
});

/**
 * The buyer's receipt of what they agreed to at Pay (`GET /admin/user/consentReceipts`, the page
 * `/dashboard/billing/consent/` and its download `GET /admin/user/consentReceipts/file`): one record of
 * `subscription_consents` named by its order's reference, never by an internal id, with prices as decimal money.
 */
export const consentReceiptSchema = z.object({
  orderReference: z.string().meta({ description: 'the order reference people read, e.g. CH-7K4M-2Q' }),
  email: z.string().meta({ description: "the account's e-mail when the buyer agreed" }),
  agreedAt: z.string().meta({ description: 'when Pay was pressed, ISO 8601 in UTC' }),
  locale: z
    .string()
    .meta({ description: 'the language of the pay step, in which the terms were shown (en, es, id, en-PH)' }),
  terms: z.object({
    version: z.string().meta({ description: 'terms-of-use@<12 hex of the SHA-256 of the terms of use shown>' }),
    text: z.string().meta({ description: 'the terms the pay step showed, one statement a line, as shown' }),
    sha256: z.string().meta({ description: 'SHA-256 of `text` (UTF-8), hex' }),
  }),
  trialPrice: decimalMoneySchema.meta({ description: 'the 24-hour trial' }),
  monthlyPrice: decimalMoneySchema.meta({ description: 'each month after the trial' }),
  startNow: z.boolean().meta({
    description:
      'the buyer asked for the service to start before the withdrawal period ended (Directive 2011/83/EU Art. 7(3))',
  }),
  ip: z.string().nullable().meta({ description: "the buyer's address as the API saw it; null when unknown" }),
  userAgent: z.string().nullable(),
});
export type ConsentReceipt = z.infer<typeof consentReceiptSchema>;

/** The caller's receipts, newest first: the page's answer and, without the API's envelope, the downloaded file. */
export const consentReceiptsSchema = z.array(consentReceiptSchema);

/**
 * `POST /portal/cancel/request` and `POST /portal/withdraw/request`: e-mail a single-use link to this address, in this
 * language (cancel or withdraw without signing in).
 */
export const linkRequestBody = z.object({ email: emailBody, locale: localeBody });

/**
 * The answer to a link request (the same whether or not the address has an account), also of the safety centre's code
 * (`POST /safety/code`) and of the contact form (`POST /other/contact`): it was queued for sending.
 */
export const linkSentSchema = z.object({ sent: z.literal(true) });

/** The e-mailed cancel link's token (body of `POST /portal/cancel/confirm`, path of `GET /portal/cancel/link/{token}`). */
export const cancelTokenSchema = z.object({ token: z.string().min(20).max(100) });

/** `GET /portal/cancel/link/{token}`: what an e-mailed cancel link can still do. */
export const cancelLinkSchema = z.object({
  state: z.enum(['usable', 'used', 'expired', 'unknown']),
  subscription: z
    .object({
      status: z.enum(['trialing', 'active', 'past_due', 'canceled']),
      cancelling: z.boolean(),
      endsAt: z.string(),
    })
    .nullable(),
});
export type CancelLink = z.infer<typeof cancelLinkSchema>;
