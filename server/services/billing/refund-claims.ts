import 'server-only';
import { and, asc, eq, inArray, lt, ne, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { orders, refunds, subscriptions, withdrawalTokens, type Order, type RefundClaim } from '../../db/schema';
import { log } from '../../observability/log';
import { paymentProvider } from '../../providers/payments';
import { lockOrder } from './billing-locks';
import { applyOrderEvent } from './order-transitions';

/**
 * Money goes back in three steps, so that no transaction is open while the payment provider answers
 * (docs/decisions/0009-no-network-call-inside-a-transaction.md; the states: docs/order-states.md):
 *
 * 1. **claim**, in a short transaction under the order's row lock (./billing-locks.ts): the caller decides (its
 *    own rules), then `claimRefund` moves the order `paid → refunding` (lib/order-machine.ts `refund_claimed`) and
 *    stores the claim (`orders.refund_claim`: the idempotency key, the amount, what the record needs). Commit.
 * 2. **call**, with no transaction open: the provider refunds with the stored key (Stripe: Idempotency-Key, "Idempotent
 *    requests" in Stripe's API reference: a retry with the same key returns the first result, never a second refund)
 *    and ends the named subscriptions at once.
 * 3. **record**, in a short transaction that locks the order again and acts only if it is still `refunding` with the
 *    same key: the `refunds` row and `refunding → refunded` (or, with nothing to refund, back to `paid`), then the
 *    cause's own record (`ClaimFinisher`). A provider error instead releases the claim (`refunding → paid`), so the
 *    same decision can be taken again.
 *
 * Another caller that finds the order `refunding` waits for the claim to settle (`settleRefund`). A process that dies
 * between the steps leaves the order `refunding` with its claim: the billing cycle's sweep (`finishStaleRefundClaims`)
 * finishes every claim older than REFUND_CLAIM_STALE_MS by asking the provider again with the same key.
 */

/**
 * How old a claim must be (wall clock, ms) before the sweep takes it over: 5 minutes, well past the longest provider
 * step (the Stripe client waits 20 000 ms per attempt with one retry, server/providers/stripe.ts, for a refund and
 * each cancel).
 */
export const REFUND_CLAIM_STALE_MS = 5 * 60_000;

/**
 * How long a caller waits for another caller's claim to settle before giving up with an error: 25 000 ms, under the
 * API client's timeout of 30 000 ms (docs/rules.md#limits).
 */
export const REFUND_CLAIM_WAIT_MS = 25_000;

/**
 * Thrown inside a claim's transaction when the order's refund is already claimed: it rolls that transaction back
 * (nothing it did is kept, e.g. a withdrawal link's use) and `settleRefund` waits and tries again.
 */
export class RefundClaimBusy extends Error {
  constructor(code: string) {
    super(`the refund of order ${code} is in progress`);
  }
}

/** Throws RefundClaimBusy when `order` (read under its lock) has a refund in progress. */
export function assertUnclaimed(order: Order): void {
  if (order.status === 'refunding') throw new RefundClaimBusy(order.code);
}

/** A committed claim: the order, what was claimed, and when (the wall clock, as stored in `refund_claimed_at`). */
export type Claimed = { orderId: string; claim: RefundClaim; claimedAt: Date };

/**
 * Step 1: claims the refund of `order` in `tx`, which must hold the order's row lock with the order `paid`
 * (`refund_claimed`; throws otherwise: a caller's bug). Returns the claim to run once `tx` has committed.
 */
export async function claimRefund(tx: Tx, order: Order, claim: RefundClaim): Promise<Claimed> {
  const claimedAt = new Date();
  const moved = await applyOrderEvent(tx, order.id, 'refund_claimed', {
    refundClaim: claim,
    refundClaimedAt: claimedAt,
  });
  if (!moved) throw new Error(`order ${order.code} is not paid; its refund cannot be claimed`);
  return { orderId: order.id, claim, claimedAt };
}

/**
 * What a cause records once the provider has answered, in the transaction of step 3 (the order locked and still
 * `refunding`; `refund` the `refunds` row just written, or null when nothing was refunded): subscription events, its
 * own rows, the buyer's e-mail. Returns what its caller answers.
 */
export type ClaimFinisher<T> = (tx: Tx, order: Order, claim: RefundClaim, refund: Refund | null) => Promise<T>;

/** A `refunds` row. */
export type Refund = typeof refunds.$inferSelect;

/**
 * Step 2: asks the provider, with no transaction open. A withdrawal ends the subscription first (nothing more is
 * charged while the money goes back), a refund refunds first, as before. Returns the provider's refund id, or null
 * when nothing was refunded. Throws the provider's error.
 */
async function askProvider(db: Db, orderId: string, claim: RefundClaim): Promise<string | null> {
  const [order] = await db.select().from(orders).where(eq(orders.id, orderId));
  const live = claim.cancel.length
    ? await db
        .select()
        .from(subscriptions)
        .where(and(inArray(subscriptions.id, claim.cancel), ne(subscriptions.status, 'canceled')))
        .orderBy(asc(subscriptions.id))
    : [];
  const cancel = async () => {
    for (const sub of live) await paymentProvider(sub.provider).cancelNow(sub);
  };
  if (claim.cause === 'withdrawal') await cancel();
  const ref =
    claim.amountMinor > 0 ? await paymentProvider(order.provider).refund(order, claim.amountMinor, claim.key) : null;
  if (claim.cause !== 'withdrawal') await cancel();
  return ref;
}

/**
 * Releases claim `c` after a failed provider call (`claim_released`: back to `paid`, the claim cleared), only while it
 * is still this claim (same key and claim time); a withdrawal link it used works again. The decision can then be
 * taken again, with the same key.
 */
async function releaseRefundClaim(db: Db, c: Claimed): Promise<void> {
  await db.transaction(async (tx) => {
    const released = await applyOrderEvent(
      tx,
      c.orderId,
      'claim_released',
      { refundClaim: null, refundClaimedAt: null },
      and(sql`${orders.refundClaim}->>'key' = ${c.claim.key}`, eq(orders.refundClaimedAt, c.claimedAt)),
    );
    const token = c.claim.withdrawal?.tokenHash;
    if (released && token)
      await tx.update(withdrawalTokens).set({ usedAt: null }).where(eq(withdrawalTokens.tokenHash, token));
  });
}

/**
 * Steps 2 and 3 of claim `c`: the provider call (no transaction open), then the record under the order's lock and
 * `finish`. Returns `{ value }`, what `finish` returned, or null when the claim was no longer there to record (another
 * caller, e.g. the sweep, recorded it). On a provider error the claim is released and the error rethrown.
 */
export async function runRefundClaim<T>(db: Db, c: Claimed, finish: ClaimFinisher<T>): Promise<{ value: T } | null> {
  let providerRef: string | null;
  try {
    providerRef = await askProvider(db, c.orderId, c.claim);
  } catch (err) {
    await releaseRefundClaim(db, c);
    throw err;
  }
  return db.transaction(async (tx) => {
    const order = await lockOrder(
      tx,
      and(
        eq(orders.id, c.orderId),
        eq(orders.status, 'refunding'),
        sql`${orders.refundClaim}->>'key' = ${c.claim.key}`,
      ),
    );
    if (!order) return null;
    const done = { refundClaim: null, refundClaimedAt: null, refundedAt: new Date(c.claim.at) };
    let refund: Refund | null = null;
    if (providerRef !== null) {
      [refund] = await tx
        .insert(refunds)
        .values({ orderId: order.id, amountMinor: c.claim.amountMinor, currency: order.currency, providerRef })
        .returning();
      await applyOrderEvent(tx, order.id, 'refunded', done);
    } else {
      await applyOrderEvent(tx, order.id, 'claim_released', { refundClaim: null, refundClaimedAt: null });
    }
    return { value: await finish(tx, order, c.claim, refund) };
  });
}

/**
 * Runs a refund decision to its end for a caller that waits for the answer (a buyer's refund, a withdrawal):
 * `attempt` runs in a transaction under the order's lock and either answers at once (`done`: a repeat, a refusal
 * thrown as an error) or claims the refund (`claimed`, `claimRefund`), which is then run (`runRefundClaim`) with
 * `finish`. When `attempt` finds another claim in progress (it throws RefundClaimBusy, `assertUnclaimed`), its
 * transaction is rolled back and it is tried again every 20–500 ms until that claim has settled: the caller then
 * answers as if it had come after it. Throws after REFUND_CLAIM_WAIT_MS (25 000 ms) of waiting.
 */
export async function settleRefund<T>(
  db: Db,
  attempt: (tx: Tx) => Promise<{ done: T } | { claimed: Claimed }>,
  finish: ClaimFinisher<T>,
): Promise<T> {
  const deadline = Date.now() + REFUND_CLAIM_WAIT_MS;
  for (let pause = 20; ; pause = Math.min(pause * 2, 500)) {
    let step: { done: T } | { claimed: Claimed };
    try {
      step = await db.transaction(attempt);
    } catch (err) {
      if (!(err instanceof RefundClaimBusy) || Date.now() > deadline) throw err;
      await new Promise((resolve) => setTimeout(resolve, pause));
      continue;
    }
    if ('done' in step) return step.done;
    const ran = await runRefundClaim(db, step.claimed, finish);
    if (ran) return ran.value;
  }
}

/** The finisher of each cause, for the sweep (services/billing/billing-cycle.ts names them). */
export type ClaimFinishers = Record<RefundClaim['cause'], ClaimFinisher<unknown>>;

/**
 * The sweep of claims a crashed process left (part of the once-a-minute billing job): every order `refunding` whose
 * claim was taken more than REFUND_CLAIM_STALE_MS ago (wall clock, whatever clock the job is given) is taken over
 * (its claim time renewed by a conditional UPDATE, so one sweeper takes it) and run to its end with its cause's
 * finisher: the provider is asked again with the stored key, which refunds at most once. At most 50 a run; one
 * failure is logged and left for the next run. Returns how many claims it recorded.
 */
export async function finishStaleRefundClaims(db: Db, finishers: ClaimFinishers): Promise<number> {
  const stale = await db
    .select({ id: orders.id, claimedAt: orders.refundClaimedAt })
    .from(orders)
    .where(
      and(eq(orders.status, 'refunding'), lt(orders.refundClaimedAt, new Date(Date.now() - REFUND_CLAIM_STALE_MS))),
    )
    .orderBy(asc(orders.refundClaimedAt))
    .limit(50);
  let recorded = 0;
  for (const row of stale) {
    const claimedAt = new Date();
    const [taken] = await db
      .update(orders)
      .set({ refundClaimedAt: claimedAt })
      .where(and(eq(orders.id, row.id), eq(orders.status, 'refunding'), eq(orders.refundClaimedAt, row.claimedAt!)))
      .returning({ claim: orders.refundClaim });
    if (!taken?.claim) continue;
    try {
      const ran = await runRefundClaim(
        db,
        { orderId: row.id, claim: taken.claim, claimedAt },
        finishers[taken.claim.cause],
      );
      if (ran) recorded++;
    } catch (err) {
      log().error({ err, orderId: row.id }, 'refund claim: provider failed, released');
    }
  }
  return recorded;
}
