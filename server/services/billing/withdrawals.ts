import 'server-only';
import { and, desc, eq, gt, inArray, isNull } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import {
  domainEvents,
  orders,
  priceSetups,
  subscriptions,
  users,
  withdrawals,
  withdrawalTokens,
  type Order,
  type Withdrawal,
} from '../../db/schema';
import { env } from '../../env';
import { DomainError, notFound } from '../../errors';
import type { Acknowledgement, ContractState, ContractView, WithdrawLink } from '../../../lib/contracts/withdraw';
import { localeUrl } from '../../../i18n/routing';
import { PAID_STATES } from '../../../lib/order-machine';
import { lockOrder, lockSubscription } from './billing-locks';
import { formatMoney } from '../money';
import { queueEmail } from '../outbox-queue';
import { assertUnclaimed, claimRefund, settleRefund, type ClaimFinisher } from './refund-claims';
import { applySubscriptionEvent } from './subscriptions';
import { emailDateTime } from '../templates';
import { randomToken, sha256 } from '../tokens';
import { quoteOfOrder, subscriptionOfOrder } from './contract-quote';

/**
 * The withdrawal function (Directive 2011/83/EU Art. 11a, inserted by Directive (EU) 2023/2673, in force 19 June 2026):
 * "Withdraw from contract here" → a confirmation step naming the contract and what happens → "Confirm withdrawal" → an
 * acknowledgement on the page and by e-mail (a durable medium) with the date and time. Reachable without signing in by
 * a single-use e-mailed link (as `/cancel`), or from Billing when signed in. Refund amounts: ./withdrawal-rule.ts, quoted by ./contract-quote.ts.
 */

/** How long an e-mailed withdrawal link works: 24 hours. */
export const WITHDRAW_LINK_TTL_MS = 24 * 3600_000;

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

/** "24 November 2026 at 15:05:09 CET (Europe/Madrid)": the instant in `zone`, as `locale` writes it. */
export function zonedDateTime(date: Date, locale: string, zone: string): string {
  const written = new Intl.DateTimeFormat(locale, {
    dateStyle: 'long',
    timeStyle: 'long',
    timeZone: zone,
  }).format(date);
  return `${written} (${zone})`;
}

/**
 * The contracts of account `userId` that a withdrawal can name: its paid and refunded orders (newest first, at most
 * 10), each with its subscription, state, period end, and the refund a withdrawal at `now` would make. Money in `lang`.
 */
export async function withdrawalContracts(db: Db, userId: string, lang: string, now: Date): Promise<ContractView[]> {
  const rows = await db
    .select({ order: orders, price: priceSetups })
    .from(orders)
    .innerJoin(priceSetups, eq(priceSetups.id, orders.priceSetupId))
    .where(and(eq(orders.userId, userId), inArray(orders.status, [...PAID_STATES])))
    .orderBy(desc(orders.paidAt))
    .limit(10);
  const views: ContractView[] = [];
  for (const { order, price } of rows) {
    if (!order.paidAt) continue;
    const sub = await subscriptionOfOrder(db, order.id);
    const [done] = await db.select().from(withdrawals).where(eq(withdrawals.orderId, order.id));
    const quote = await quoteOfOrder(db, order, sub, now);
    const state: ContractState = done
      ? 'withdrawn'
      : order.status === 'refunded'
        ? 'refunded'
        : quote.withinPeriod
          ? 'open'
          : 'period_ended';
    const money = (minor: number) => formatMoney(minor, order.currency, lang);
    views.push({
      code: order.code,
      reference: order.reference,
      product: env().NEXT_PUBLIC_PRODUCT_NAME,
      phone: order.phoneE164,
      paidAt: order.paidAt.toISOString(),
      trial: money(order.amountMinor),
      monthly: formatMoney(price.monthlyPriceMinor, price.currency, lang),
      method: order.paymentMethod,
      subscription: sub ? { status: sub.status, currentPeriodEnd: sub.currentPeriodEnd.toISOString() } : null,
      state,
      deadline: quote.deadline.toISOString(),
      rule: quote.rule,
      paid: money(quote.paidMinor),
      paidMinor: quote.paidMinor,
      refund: money(quote.refundMinor),
      refundMinor: quote.refundMinor,
      currency: order.currency,
      withdrawal: done
        ? { at: done.withdrawnAt.toISOString(), refund: money(done.refundMinor), refundMinor: done.refundMinor }
        : null,
    });
  }
  return views;
}

/**
 * Step 1 without signing in: if `email` belongs to an account with a paid (or refunded) order, e-mail it a single-use
 * withdrawal link valid WITHDRAW_LINK_TTL_MS (24 h; only the SHA-256 of its 256-bit token is stored). The same answer
 * whether or not the address is known (the caller answers the same; rate limits are the route's). The link exists
 * also after the 14 days: the page then says the period has ended and offers cancellation.
 */
export async function requestWithdrawLink(db: Db, email: string, locale: string, now = new Date()): Promise<void> {
  const [user] = await db.select({ id: users.id }).from(users).where(eq(users.email, email.trim().toLowerCase()));
  if (!user) return;
  const [order] = await db
    .select({ id: orders.id })
    .from(orders)
    .where(and(eq(orders.userId, user.id), inArray(orders.status, [...PAID_STATES])))
    .limit(1);
  if (!order) return;
  const token = randomToken(32);
  await db.transaction(async (tx) => {
    await tx.insert(withdrawalTokens).values({
      userId: user.id,
      tokenHash: sha256(token),
      expiresAt: new Date(now.getTime() + WITHDRAW_LINK_TTL_MS),
    });
    const link = localeUrl(env().APP_ORIGIN, locale, `/withdraw/?token=${token}`);
    await queueEmail(tx, { to: email, template: 'withdraw-link', locale, params: { link } });
  });
}

/**
 * What an e-mailed withdrawal link can do: `usable` (with the account's contracts for the confirmation step), `used`,
 * `expired` or `unknown`. The link ends when used: a used link answers only `completedAt`, when its withdrawal was
 * confirmed (the claim's time, ISO 8601), and no contracts, so a forwarded or leaked e-mail shows neither the number
 * located nor the order (data minimisation, GDPR Art. 5(1)(c); the acknowledgement itself went to the account's
 * address, Directive 2011/83/EU Art. 11a(3)). The page shows the acknowledgement from the confirmation's answer right
 * after confirming. The token is 256 random bits, so the answer tells a guesser nothing.
 */
export async function withdrawLinkState(db: Db, token: string, lang: string, now = new Date()): Promise<WithdrawLink> {
  const [row] = await db
    .select()
    .from(withdrawalTokens)
    .where(eq(withdrawalTokens.tokenHash, sha256(token)));
  if (!row) return { state: 'unknown' as const, contracts: [], completedAt: null };
  if (row.usedAt) return { state: 'used' as const, contracts: [], completedAt: row.usedAt.toISOString() };
  if (row.expiresAt <= now) return { state: 'expired' as const, contracts: [], completedAt: null };
  return {
    state: 'usable' as const,
    contracts: await withdrawalContracts(db, row.userId, lang, now),
    completedAt: null,
  };
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

/**
 * The acknowledgement on a durable medium (Art. 11a(3)): the contract (product, order reference, number, payment
 * date), the date and time of the withdrawal in UTC and in the buyer's zone, and the refund. Texts:
 * messages/*.json `Email.withdrawn*`.
 */
async function queueAcknowledgement(tx: Tx, order: Order, w: Withdrawal): Promise<string> {
  const locale = order.locale;
  const utc = emailDateTime(w.withdrawnAt, locale);
  return queueEmail(tx, {
    to: order.email,
    template: 'withdrawal-confirmed',
    locale,
    params: {
      order: order.reference,
      phone: order.phoneE164,
      paidAt: emailDateTime(order.paidAt!, locale),
      amount: formatMoney(order.amountMinor, order.currency, locale),
      date: utc,
      local: w.timeZone ? zonedDateTime(w.withdrawnAt, locale, w.timeZone) : utc,
      refund: formatMoney(w.refundMinor, w.currency, locale),
      refundMinor: w.refundMinor,
      method: order.paymentMethod,
      rule: w.rule,
    },
  });
}

/** The acknowledgement as the page shows it: ISO instant, both written forms, the contract and the refund. */
export function acknowledgementView(w: Withdrawal, order: Order, lang: string, repeated: boolean): Acknowledgement {
  return {
    reference: order.reference,
    product: env().NEXT_PUBLIC_PRODUCT_NAME,
    at: w.withdrawnAt.toISOString(),
    atUtc: emailDateTime(w.withdrawnAt, lang),
    atLocal: w.timeZone ? zonedDateTime(w.withdrawnAt, lang, w.timeZone) : null,
    timeZone: w.timeZone,
    rule: w.rule,
    refund: formatMoney(w.refundMinor, w.currency, lang),
    refundMinor: w.refundMinor,
    method: order.paymentMethod,
    repeated,
  };
}
