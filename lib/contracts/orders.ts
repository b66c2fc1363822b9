import { z } from 'zod';
import { askFields, emailBody, formBoolean, localeBody, trackingFields } from './fields';
import { phoneCountry, phoneInput } from './phone';
import { BUYER_ORDER_STATES } from '../order-machine';

/**
 * The orders' contract (`/portal/priceSetup`, `/portal/priceSetup/offer`, `/portal/order`, the status page): each
 * request body and answer once, as zod schemas. The routes validate and document with them
 * (server/api/routes/orders.ts), the services return their `z.infer` types (server/services/billing/order-views.ts,
 * prices.ts) and the pages read those types (components/locate, components/payment). Changing an order's shape is an
 * edit of this file (docs/decisions/0010-one-contract-per-payload.md).
 */

const uuid = z.uuid('Validation.invalid');

/** The price plan of docs/rules.md#entities (`GET /portal/priceSetup`): minor units, major-unit strings and formatted texts. */
export const pricePlanSchema = z.object({
  id: z.string(),
  currency: z.string().meta({ description: 'ISO 4217, e.g. EUR' }),
  isTryout: z.boolean(),
  trialPrice: z.string().meta({ description: 'major units, e.g. "0.99"' }),
  presentPrice: z.string().meta({ description: 'monthly price, major units' }),
  sign: z.string(),
  integer: z.string(),
  decimal: z.string(),
  trialPriceMinor: z.number().int().meta({ description: 'minor units' }),
  listTrialPriceMinor: z.number().int().meta({ description: 'minor units, before the first-order discount' }),
  monthlyPriceMinor: z.number().int().meta({ description: 'minor units' }),
  trialHours: z.number().int(),
  geolocations: z.number().int().meta({ description: 'location requests a billing period' }),
  trialText: z.string(),
  listTrialText: z.string(),
  monthlyText: z.string(),
  offerPercentOff: z.number().int(),
});
export type PricePlan = z.infer<typeof pricePlanSchema>;

/** `GET /portal/priceSetup`'s query: a price setup id; the default plan when absent. */
export const priceQuery = z.object({ plan: uuid.optional() });

/** `POST /portal/priceSetup/offer`'s body: who orders for which number, and the plan. */
export const offerBody = z.object({
  email: emailBody,
  phone: phoneInput,
  country: phoneCountry,
  plan: uuid.optional(),
});

/** The pay step's price and first-order discount (`POST /portal/priceSetup/offer`). */
export const offerViewSchema = z.object({
  offer: z
    .object({
      id: z.string(),
      percentOff: z.number(),
      expiresAt: z.string().nullable().meta({
        deprecated: true,
        description: 'always null: the discount does not run out (it used to end 10 minutes after first shown)',
      }),
      rule: z.literal('first_order').meta({ description: 'first order from this browser and address, once' }),
    })
    .nullable()
    .meta({ description: "the first-order discount when it is this buyer's; else null (`firstOrder` says why)" }),
  firstOrder: z.enum(['eligible', 'account', 'used']).meta({
    description: 'eligible; account: the address has an account (not a first order); used: had or held elsewhere',
  }),
  serverNow: z.string().meta({ deprecated: true, description: 'the server clock; no longer needed' }),
  plan: pricePlanSchema,
  billingDescriptor: z.string().meta({ description: 'what the card statement will show (a setting)' }),
});
export type OfferView = z.infer<typeof offerViewSchema>;

/** `POST /portal/order`'s body (docs/rules.md#api). */
export const orderBody = z.object({
  email: emailBody,
  ...askFields,
  locale: localeBody,
  /** One box: "I am 18 or older and accept the terms of use and the privacy policy" (docs/rules.md#validation, #roles). */
  terms: formBoolean.refine((v) => v, 'Validation.termsRequired'),
  /**
   * The buyer's express request that the service start at once, within the 14-day withdrawal period (the pay step
   * states it above Pay; Directive 2011/83/EU Art. 7(3)): a withdrawal after a location was shared then refunds pro
   * rata (Art. 14(3)). Required and only `true`: the consent SMS goes out as soon as the order is paid, so an order
   * without the request would be served at once and then refunded in full (docs/rules.md#payments). Absent or false:
   * 422 `Validation.startNowRequired`.
   */
  startNow: z.preprocess((v) => v ?? false, formBoolean).refine((v) => v, 'Validation.startNowRequired'),
  plan: uuid.optional(),
  method: z.enum(['card', 'wallet']).default('card'),
  offer: uuid.optional(),
  idempotencyKey: z.string().min(8).max(100).optional(),
  ...trackingFields,
});
export type OrderBody = z.infer<typeof orderBody>;

/** The path of the order pages' calls: the order's unguessable public code. */
export const orderCodeParams = z.object({ code: z.string().min(10).max(64) });

/** An order as the pay pages show it (docs/rules.md#entities payment texts); amounts formatted in the request language. */
export const orderViewSchema = z.object({
  code: z.string().meta({ description: 'the random order code: the key of checkout and status URLs, never its name' }),
  reference: z.string().meta({ description: 'the short order reference people read and quote, e.g. CH-7K4M-2Q' }),
  status: z.enum(BUYER_ORDER_STATES),
  email: z.string(),
  phone: z.string().meta({ description: 'E.164' }),
  amountMinor: z.number().int().meta({ description: 'minor units' }),
  currency: z.string().meta({ description: 'ISO 4217' }),
  amount: z.string(),
  listAmount: z.string(),
  monthlyAmount: z.string(),
  trialHours: z.number().int(),
  geolocations: z.number().int().meta({ description: 'location requests a billing period' }),
  method: z.enum(['card', 'wallet']),
  provider: z.enum(['sandbox', 'stripe']),
  card: z.string().nullable().meta({ description: 'last four digits of the card that paid' }),
  cardBrand: z.string().nullable().meta({
    description: "the card's scheme as Stripe names it: visa, mastercard, … (lib/card-brand.ts prints it)",
  }),
  pendingAction: z.string().nullable(),
  failureCode: z.string().nullable(),
  billingDescriptor: z.string(),
  supportEmail: z.string(),
  productName: z.string(),
  offerEndsAt: z.string().nullable(),
  paidAt: z.string().nullable().meta({ description: 'when the order was paid (ISO 8601), null before' }),
  smsStatus: z.enum(['queued', 'sending', 'sent', 'delivered', 'failed']).nullable().meta({
    description: 'the consent SMS: failed when it was refused (caps) or not delivered; null before it exists',
  }),
  requestId: z.string().nullable().meta({ description: 'the location request the payment made; null before' }),
  temporaryPassword: z
    .boolean()
    .meta({ description: "the order's account still signs in with the temporary password e-mailed at payment" }),
});
export type OrderView = z.infer<typeof orderViewSchema>;

/** `POST /portal/order`'s answer: the order and `next`, where the payer goes to pay. */
export const createdOrderSchema = orderViewSchema.extend({ next: z.string() });
export type CreatedOrder = z.infer<typeof createdOrderSchema>;

/**
 * What the checkout page mounts Stripe's Embedded Checkout with (server/providers/payments.ts `checkoutSecret`):
 * the Checkout Session's client secret and the account's publishable key (https://docs.stripe.com/js/embedded_checkout).
 */
export const embeddedCheckoutSchema = z.object({
  clientSecret: z.string().meta({ description: "the open Checkout Session's client_secret" }),
  publishableKey: z.string().meta({ description: 'pk_test_… or pk_live_…, for Stripe.js' }),
});
export type EmbeddedCheckout = z.infer<typeof embeddedCheckoutSchema>;

/**
 * The sandbox checkout's 3-D Secure step and wallet (`POST /portal/order/{code}/sandbox3ds`, `…/sandboxWallet`): the
 * payer approves (true) or refuses (false); form values 'true', '1', 'on' count as true (`formBoolean`).
 */
export const sandboxApproveBody = z.object({ approve: formBoolean });

/**
 * A sandbox payment's outcome (`POST /portal/order/{code}/sandboxPay`, `…/sandbox3ds`, `…/sandboxWallet`): paid (the
 * payer is signed in when the payment made the account), or a 3-D Secure step is required; the order's e-mail and
 * number. A decline answers 402 instead (server/api/routes/sandbox-pay.ts).
 */
export const sandboxPaidSchema = z.object({
  status: z.enum(['paid', 'requires_action']),
  email: z.string(),
  phone: z.string(),
});
export type SandboxPaid = z.infer<typeof sandboxPaidSchema>;
