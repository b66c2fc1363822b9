// Billing: what a buyer pays, for what, and how the money comes back (docs/rules.md "States" and "Limits",
// docs/order-states.md; the order machine lib/order-machine.ts, the subscription machine ./subscription-machine.ts).
// Orders and their checkout, prices and the first-order discount, subscriptions and their renewals, refunds and
// withdrawals from the contract (Directive 2011/83/EU as amended by Directive (EU) 2023/2673), the proof of consent
// and the annual reminder of an automatic renewal (California Business and Professions Code §17602 as amended by
// AB 2863), cancel links, receipts, and the once-a-minute billing cycle. Everything that writes the `orders`,
// `payments`, `subscriptions`, `refunds` and `withdrawals` tables, and every call that moves money at the payment
// provider, is in this folder (docs/decisions/0020-domain-folders.md).
//
// This file is the one entry the rest of the app imports. Orders (./orders.ts, ./order-views.ts, ./order-transitions.ts,
// ./order-reference.ts) and their checkout (./checkout.ts, ./receipts.ts); prices (./prices.ts, ./first-order-discount.ts); subscriptions
// (./subscription-machine.ts, ./subscriptions.ts, ./renewals.ts, ./subscription-consents.ts, ./cancel-links.ts,
// ./annual-notices.ts); money back (./refund-claims.ts, ./refunds.ts, ./unconsented-trials.ts, ./withdrawal-rule.ts,
// ./contract-quote.ts, ./withdrawals.ts with ./withdrawal-links.ts and
// ./withdrawal-acknowledgement.ts); the lock order they share (./billing-locks.ts); the billing page
// (./billing-overview.ts) and the job (./billing-cycle.ts). Pure rules (the machines, the withdrawal rule, who holds
// the first-order discount) are exported too, so tests check them where they are defined.
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
  TRIAL_DECISION_LEAD_MS,
  addMonths,
  hasAccess,
  isDue,
  nextAnniversary,
  transition,
  trialDecisionDue,
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
