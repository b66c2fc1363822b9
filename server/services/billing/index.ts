// Billing: what a buyer pays, for what, and how the money comes back (docs/rules.md "Payments" and "States",
// docs/order-states.md, docs/features.md "Payments and subscriptions"). Orders and their payment, prices and the
// first-order discount, subscriptions and their renewals, refunds, withdrawals from the contract (Directive 2011/83/EU
// as amended by Directive (EU) 2023/2673), the proof of consent to the subscription and the annual reminder
// (California's automatic-renewal law as amended by AB 2863), cancel links, receipts, and the once-a-minute billing
// job. Every write of the `orders`, `payments`, `subscriptions`, `refunds` and `withdrawals` tables and every call
// that moves money at the payment provider is in this folder (docs/decisions/0020-domain-folders.md).
//
// This file is the one entry the rest of the app imports:
// - orders: ./orders.ts (creating one), ./order-views.ts (reading one), ./order-transitions.ts (its machine,
//   lib/order-machine.ts, applied), ./order-reference.ts, ./checkout.ts (paying it), ./paid-order.ts (the trial and
//   the order e-mail a payment writes), ./receipts.ts;
// - prices: ./prices.ts, ./first-order-discount.ts;
// - subscriptions: ./subscription-machine.ts, ./subscriptions.ts, ./renewals.ts, ./subscription-consents.ts,
//   ./cancel-links.ts, ./annual-notices.ts;
// - money back: ./refund-claims.ts (the three steps every refund takes), ./refunds.ts, ./unconsented-trials.ts,
//   ./withdrawal-rule.ts, ./contract-quote.ts, ./withdrawal-links.ts, ./withdrawals.ts,
//   ./withdrawal-acknowledgement.ts;
// - what they share: the lock order (./billing-locks.ts); the Billing page (./billing-overview.ts); the job
//   (./billing-cycle.ts).
// Pure rules (the machines, the withdrawal rule, who holds the first-order discount) and the refund claim are exported
// too, so that tests check them where they are defined.
export { createOrder, emailRegistered } from './orders';
export { embeddedCheckout, findOrder, orderView, ownedOrder } from './order-views';
export { ORDER_REFERENCE } from './order-reference';
export { applyOrderEvent } from './order-transitions';
export {
  completeSandbox3ds,
  completeSandboxWallet,
  fulfilOrder,
  paySandboxCard,
  type ClientMeta,
  type PayResult,
} from './checkout';
export { queueReceipt } from './receipts';
export {
  PRICE_CACHE_MS,
  displayedPricePlan,
  displayedPriceSetup,
  preferredCurrency,
  pricePlan,
  priceSetup,
} from './prices';
export {
  CLAIM_GRACE_MS,
  OTHER_BROWSER_HOLD_MS,
  STRIPE_SESSION_MS,
  browserKeyOf,
  buyerKey,
  firstOrderStatus,
  holding,
  showOffer,
} from './first-order-discount';
export {
  MAX_FAILED_RENEWALS,
  SUBSCRIPTION_STATES,
  SUBSCRIPTION_TRANSITIONS,
  TRIAL_DECISION_LEAD_MS,
  addMonths,
  hasAccess,
  isDue,
  nextAnniversary,
  transition,
  trialDecisionDue,
  type SubscriptionEvent,
  type SubscriptionState,
} from './subscription-machine';
export { applySubscriptionEvent, cancelSubscriptions } from './subscriptions';
export {
  consentRecordView,
  purgeSubscriptionConsents,
  subscriptionConsentsOf,
  subscriptionConsentsOfOrders,
} from './subscription-consents';
export { cancelLinkState, confirmCancelLink, requestCancelLink } from './cancel-links';
export { REFUND_CLAIM_STALE_MS, claimRefund } from './refund-claims';
export { refundCauses, refundCheck, refundOrder, refusalMessage } from './refunds';
export { WITHDRAWAL_DAYS, withdrawalQuote } from './withdrawal-rule';
export { withdraw, withdrawKey } from './withdrawals';
export { requestWithdrawLink, withdrawLinkState, withdrawalContracts } from './withdrawal-links';
export { acknowledgementView } from './withdrawal-acknowledgement';
export { lockOrder } from './billing-locks';
export { billingFacts, billingOverview } from './billing-overview';
export { runBillingCycle } from './billing-cycle';
