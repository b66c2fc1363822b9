import 'server-only';
import { and, desc, eq, gt, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client';
import {
  domainEvents,
  orders,
  subscriptions,
  withdrawals,
  withdrawalTokens,
  type Order,
  type Withdrawal,
} from '../../db/schema';
import { DomainError, notFound } from '../../errors';
import { lockOrder, lockSubscription } from './billing-locks';
import { assertUnclaimed, claimRefund, settleRefund, type ClaimFinisher } from './refund-claims';
import { applySubscriptionEvent } from './subscriptions';
import { emailDateTime } from '../messaging';
import { sha256 } from '../tokens';
import { quoteOfOrder } from './contract-quote';
import { queueAcknowledgement } from './withdrawal-acknowledgement';

/**
 * The withdrawal function (Directive 2011/83/EU Art. 11a, inserted by Directive (EU) 2023/2673, in force 19 June 2026):
 * "Withdraw from contract here" → a confirmation step naming the contract and what happens → "Confirm withdrawal" → an
 * acknowledgement on the page and by e-mail (a durable medium) with the date and time. Reachable without signing in by
 * a single-use e-mailed link (as `/cancel`), or from Billing when signed in. Refund amounts: ./withdrawal-rule.ts, quoted
 * by ./contract-quote.ts. This file is the withdrawal itself and the refund it triggers; the e-mailed link and the
 * contracts it shows are ./withdrawal-links.ts, the acknowledgement ./withdrawal-acknowledgement.ts.
 */

/** The provider's idempotency key of the refund a withdrawal of order `code` makes: a retry never refunds twice. */
export const withdrawKey = (code: string) => `withdraw-${code}`;

/** The validated IANA time zone the browser reported, or null (unknown zones are dropped, not refused). */
export function validTimeZone(zone: string | null | undefined): string | null {
  if (!zone || zone.length > 64) return null;
  try {
    return new Intl.DateTimeFormat('en', { timeZone: zone }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

/** Who withdraws, how and from where: either a signed-in account (`userId`) or an e-mailed link (`token`). */
export type WithdrawInput = ({ userId: string; token?: never } | { token: string; userId?: never }) & {
  /** The order's public code (the contract named on the confirmation step). */
  code: string;
  ip: string | null;
  userAgent: string | null;
  /** The browser's IANA zone for the acknowledgement; invalid or absent: UTC only. */
  timeZone?: string | null;
  now?: Date;
};

/** What a withdrawal answers: the record, the order, whether it repeats an earlier one. */
export type WithdrawResult = { withdrawal: Withdrawal; order: Order; repeated: boolean };

/**
 * Withdraws from the contract of order `code` ("Confirm withdrawal"). The decision is taken in one transaction, the
 * money moved with none open (./refund-claims.ts, docs/decisions/0009):
 * 1. an e-mailed link is claimed (single use: a used, expired or unknown token → 410 `Api.withdrawLinkInvalid`; a
 *    refused withdrawal rolls the claim back, so the link still works for cancelling or another contract);
 * 2. the order is locked (`for no key update`, before the subscription: the lock order of ./billing-locks.ts,
 *    which every refund, cancel and renewal path follows) — a second withdrawal of the same order waits (also for a
 *    refund in progress) and then answers the first (`repeated`); then its subscription is locked, so a renewal
 *    charge running at the same moment either finished before (and its charge is refunded with the rest) or finds
 *    the order claimed and charges nothing;
 * 3. refused: not the caller's order or never paid → 404; already refunded → 409 `Api.withdrawRefunded`
 *    (`reason: already_refunded`); after the 14 days → 409 `Api.withdrawPeriodEnded` (`reason: period_ended`);
 * 4. the refund (./withdrawal-rule.ts) is claimed with the key `withdraw-<code>`; after the commit the
 *    provider ends the subscription at once and refunds (none when the rule gives nothing back); a provider error is
 *    thrown and the claim released (the link works again);
 * 5. then, under the order's lock again (`finishWithdrawal`): the subscription's `withdrawn` (which ends open
 *    requests), the withdrawal recorded (append-only `withdrawals`: who, when, IP, user agent, zone, rule, refund), an
 *    `order.withdrawn` domain event and the acknowledgement e-mailed (`withdrawal-confirmed`).
 */
export async function withdraw(db: Db, input: WithdrawInput): Promise<WithdrawResult> {
  const now = input.now ?? new Date();
  const timeZone = validTimeZone(input.timeZone);
  return settleRefund<WithdrawResult>(
    db,
    async (tx) => {
      let userId = input.userId;
      const tokenHash = input.token !== undefined ? sha256(input.token) : null;
      if (tokenHash !== null) {
        const [claimed] = await tx
          .update(withdrawalTokens)
          .set({ usedAt: now })
          .where(
            and(
              eq(withdrawalTokens.tokenHash, tokenHash),
              isNull(withdrawalTokens.usedAt),
              gt(withdrawalTokens.expiresAt, now),
            ),
          )
          .returning({ userId: withdrawalTokens.userId });
        if (!claimed) throw new DomainError('gone', 'Api.withdrawLinkInvalid');
        userId = claimed.userId;
      }
      // NO KEY UPDATE (./billing-locks.ts): withdrawals, refunds, cancellations and renewal charges of the
      // order wait for each other in one order, while inserting rows that reference the order (KEY SHARE) is not
      // blocked.
      const order = await lockOrder(tx, and(eq(orders.code, input.code), eq(orders.userId, userId!)));
      if (!order || !order.paidAt) throw notFound();
      const [existing] = await tx.select().from(withdrawals).where(eq(withdrawals.orderId, order.id));
      if (existing) return { done: { withdrawal: existing, order, repeated: true } };
      assertUnclaimed(order);
      if (order.status === 'refunded') {
        throw new DomainError('conflict', 'Api.withdrawRefunded', {}, { reason: 'already_refunded' });
      }
      if (order.status !== 'paid') throw notFound();
      const [sub] = await tx
        .select()
        .from(subscriptions)
        .where(eq(subscriptions.orderId, order.id))
        .orderBy(desc(subscriptions.createdAt))
        .limit(1)
        .for('update');
      const quote = await quoteOfOrder(tx, order, sub, now);
      if (!quote.withinPeriod) {
        throw new DomainError(
          'conflict',
          'Api.withdrawPeriodEnded',
          { date: emailDateTime(quote.deadline, order.locale) },
          { reason: 'period_ended' },
        );
      }
      const claimed = await claimRefund(tx, order, {
        cause: 'withdrawal',
        key: withdrawKey(order.code),
        amountMinor: quote.refundMinor,
        at: now.toISOString(),
        lang: order.locale,
        cancel: sub && sub.status !== 'canceled' && sub.provider !== 'sandbox' ? [sub.id] : [],
        withdrawal: {
          userId: userId!,
          subscriptionId: sub?.id ?? null,
          via: tokenHash !== null ? 'email_link' : 'account',
          tokenHash,
          ip: input.ip,
          userAgent: input.userAgent?.slice(0, 500) ?? null,
          timeZone,
          periodEndsAt: quote.deadline.toISOString(),
          rule: quote.rule,
          paidMinor: quote.paidMinor,
        },
      });
      return { claimed };
    },
    finishWithdrawal,
  );
}

/**
 * Records a withdrawal once the provider has ended the subscription and refunded (a `ClaimFinisher`,
 * ./refund-claims.ts; `refund` null when the rule gave nothing back): the subscription's `withdrawn`, the
 * `withdrawals` row, the `order.withdrawn` domain event and the acknowledgement e-mail (sent when the transaction
 * commits). Returns the withdrawal (`repeated: false`).
 */
export const finishWithdrawal: ClaimFinisher<WithdrawResult> = async (tx, order, claim, refund) => {
  const w = claim.withdrawal!;
  const at = new Date(claim.at);
  if (w.subscriptionId) {
    await lockSubscription(tx, w.subscriptionId);
    await applySubscriptionEvent(tx, w.subscriptionId, { type: 'withdrawn', at });
  }
  const [withdrawal] = await tx
    .insert(withdrawals)
    .values({
      orderId: order.id,
      userId: w.userId,
      email: order.email,
      subscriptionId: w.subscriptionId,
      via: w.via,
      ip: w.ip,
      userAgent: w.userAgent,
      timeZone: w.timeZone,
      withdrawnAt: at,
      periodEndsAt: new Date(w.periodEndsAt),
      rule: w.rule,
      paidMinor: w.paidMinor,
      refundMinor: claim.amountMinor,
      currency: order.currency,
      refundId: refund?.id ?? null,
    })
    .returning();
  await tx.insert(domainEvents).values({
    type: 'order.withdrawn',
    aggregateId: order.id,
    payload: { rule: w.rule, refundMinor: claim.amountMinor, at: claim.at },
  });
  await queueAcknowledgement(tx, order, withdrawal);
  return { withdrawal, order, repeated: false };
};
