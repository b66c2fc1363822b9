/**
 * The order state machine: the one table of an order's payment states and the events that move it. Pure (no database,
 * no clock), in the idiom of the location request's machine (lib/request-machine.ts, docs/decisions/0007): the server
 * applies each event as one conditional UPDATE (server/services/billing/order-transitions.ts), so of two racing events the
 * second sees the first's result. States and events are listed in docs/order-states.md.
 *
 * ```
 *  pending ──paid──▶ paid ──refund_claimed──▶ refunding ──refunded──▶ refunded
 *   │  ▲ └─declined─▶ failed ──paid──▶ paid  ◀──claim_released──┘
 *   │  └action_required┘ (3-D Secure)
 *   └── payment_canceled / superseded ──▶ canceled
 * ```
 *
 * Rules it encodes (docs/rules.md#states):
 * - An order is paid only from `pending` or `failed` (a declined card may be tried again), never twice.
 * - Money goes back in three steps, so that no transaction is open while the provider is asked
 *   (docs/decisions/0009): the refund is claimed (`refunding`, with its idempotency key), the provider called, and the
 *   result recorded (`refunded`) or the claim released (back to `paid`, to be tried again).
 * - A refund ends an order for good: nothing leaves `refunded` or `canceled`.
 * - An unpaid order loses its first-order discount to a newer one of the same buyer (`superseded`,
 *   server/services/billing/first-order-discount.ts `claimFirstOrderDiscount`) only while it is still unpaid.
 */

import { nextState, type Transition } from './state-machine';

/** Every state an order can be in (the `order_status` enum, drizzle/0000_init.sql). */
export const ORDER_STATES = ['created', 'pending', 'paid', 'failed', 'canceled', 'refunding', 'refunded'] as const;

export type OrderState = (typeof ORDER_STATES)[number];

/** The states in which an order can still be paid (a first attempt, or a retry after a decline). */
export const PAYABLE_STATES = ['pending', 'failed'] as const satisfies readonly OrderState[];

/** The states of an order that was paid: the buyer's contract exists (paid, a refund under way, or refunded). */
export const PAID_STATES = ['paid', 'refunding', 'refunded'] as const satisfies readonly OrderState[];

/** What can happen to an order. */
export const ORDER_EVENTS = [
  'action_required',
  'paid',
  'declined',
  'payment_canceled',
  'superseded',
  'refund_claimed',
  'refunded',
  'claim_released',
] as const;

export type OrderEvent = (typeof ORDER_EVENTS)[number];

/** One row of the table (lib/state-machine.ts). */
export type OrderTransition = Transition<OrderState>;

/**
 * The transition table. An event taken in a state not listed in its `from` changes nothing (the caller decides whether
 * that is an error).
 */
export const ORDER_TRANSITIONS: Readonly<Record<OrderEvent, OrderTransition>> = {
  /** The card asks for a 3-D Secure step before it pays (the sandbox's 4000 0027 6000 3184). */
  action_required: { from: [...PAYABLE_STATES], to: 'pending' },
  /** The provider took the payment (our sandbox checkout, or Stripe's Checkout Session completed). */
  paid: { from: [...PAYABLE_STATES], to: 'paid' },
  /** The card was declined; the buyer may try again. */
  declined: { from: [...PAYABLE_STATES], to: 'failed' },
  /** The payment was given up: the wallet cancelled, or insufficient funds at registration. */
  payment_canceled: { from: [...PAYABLE_STATES], to: 'canceled' },
  /** A newer order of the same buyer took the first-order discount while this one was unpaid. */
  superseded: { from: ['created', ...PAYABLE_STATES], to: 'canceled' },
  /**
   * A refund is decided and claimed under the order's lock (the buyer's or an operator's refund, a withdrawal, an
   * unconsented trial): the provider is asked next, with no transaction open.
   */
  refund_claimed: { from: ['paid'], to: 'refunding' },
  /** The provider refunded: the money went back. */
  refunded: { from: ['refunding'], to: 'refunded' },
  /** The claim ends without a refund: the provider failed (tried again later), or a withdrawal refunded nothing. */
  claim_released: { from: ['refunding'], to: 'paid' },
};

/** The state `event` leads to from `state`, or null when the table does not allow it there. */
export function nextOrderState(state: OrderState, event: OrderEvent): OrderState | null {
  return nextState(ORDER_TRANSITIONS, state, event);
}

/** Whether an order in `state` can still be paid. */
export const isPayable = (state: OrderState): boolean => (PAYABLE_STATES as readonly string[]).includes(state);

/**
 * The states the buyer sees (the API's order contracts, lib/contracts/orders.ts and billing.ts): a refund under way
 * reads as `paid` until it is recorded (docs/order-states.md). Written out rather than derived from ORDER_STATES: a
 * new state fails the build in `buyerOrderState` until someone decides whether the buyer may see it.
 */
export const BUYER_ORDER_STATES = [
  'created',
  'pending',
  'paid',
  'failed',
  'canceled',
  'refunded',
] as const satisfies readonly OrderState[];

export type BuyerOrderState = (typeof BUYER_ORDER_STATES)[number];

/** What the buyer is shown for an order in `state`: `refunding` is `paid` (the money has not gone back yet). */
export function buyerOrderState(state: OrderState): BuyerOrderState {
  return state === 'refunding' ? 'paid' : state;
}
