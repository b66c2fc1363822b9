/**
 * Which subscriptions let a buyer locate: the one rule that the billing domain (which moves subscriptions through their
 * states, server/services/billing/subscription-machine.ts) and the locate domain (which checks it where a consent is
 * recorded and where a position is stored, server/services/locate/buyer-access.ts) both read (docs/rules.md#states: a
 * trial or a paid month gives access until its period ends; `past_due` suspends it). Pure and on its own, so that
 * locate reads the rule without importing billing, which itself creates and withdraws location requests
 * (docs/decisions/0020-domain-folders.md).
 */

/** Every state a subscription can be in (the `subscription_status` enum, server/db/schema/billing.ts). */
export type SubscriptionStatus = 'trialing' | 'active' | 'past_due' | 'canceled';

/** The states in which a subscriber may use the service while inside the period (`hasAccess`). */
export const ACCESS_STATUSES = ['trialing', 'active'] as const satisfies readonly SubscriptionStatus[];

/** Whether a subscriber in `state` may use the service at `now`: trialing or active and inside the period. */
export function hasAccess(state: { status: SubscriptionStatus; currentPeriodEnd: Date }, now: Date): boolean {
  return (ACCESS_STATUSES as readonly SubscriptionStatus[]).includes(state.status) && state.currentPeriodEnd > now;
}
