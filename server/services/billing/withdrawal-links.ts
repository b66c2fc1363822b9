import 'server-only';
import { and, desc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { orders, priceSetups, users, withdrawals, withdrawalTokens } from '../../db/schema';
import { env } from '../../env';
import type { ContractState, ContractView, WithdrawLink } from '../../../lib/contracts/withdraw';
import { localeUrl } from '../../../i18n/routing';
import { PAID_STATES } from '../../../lib/order-machine';
import { formatMoney } from '../money';
import { queueEmail } from '../messaging';
import { randomToken, sha256 } from '../tokens';
import { quoteOfOrder, subscriptionOfOrder } from './contract-quote';

// The way to the withdrawal function without signing in (Directive 2011/83/EU Art. 11a: "easily accessible"): the
// single-use e-mailed link, what it can still do, and the contracts a withdrawal can name, each with the refund the
// rule gives (./withdrawal-rule.ts, quoted by ./contract-quote.ts). The withdrawal itself is ./withdrawals.ts.

/** How long an e-mailed withdrawal link works: 24 hours. */
export const WITHDRAW_LINK_TTL_MS = 24 * 3600_000;

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
