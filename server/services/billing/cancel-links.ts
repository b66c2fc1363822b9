import 'server-only';
import { and, desc, eq, gt, isNull } from 'drizzle-orm';
import type { CancelLink } from '../../../lib/contracts/billing';
import type { Db, Tx } from '../../db/client';
import { cancelTokens, subscriptions, users } from '../../db/schema';
import { env } from '../../env';
import { DomainError } from '../../errors';
import { paymentProvider } from '../../providers/payments';
import { localeUrl } from '../../../i18n/routing';
import { queueEmail } from '../messaging';
import { cancelSubscriptions, liveSubscriptions } from './subscriptions';
import { randomToken, sha256 } from '../tokens';

// Cancelling without signing in (docs/rules.md "States": cancel stops every further charge, access lasts to the
// period end; docs/features.md "Payments and subscriptions"): the single-use e-mailed cancel link, what it can still
// do, and its confirmation, which cancels at the provider and then through ./subscriptions.ts.

/** How long an e-mailed cancel link works. */
export const CANCEL_LINK_TTL_MS = 24 * 3600_000;

/**
 * Creates a single-use cancel link for `userId` inside `tx`: a 256-bit random token, of which only the SHA-256 is
 * stored, valid `ttlMs` (default CANCEL_LINK_TTL_MS, 24 h) from `now`. Opening it shows the confirmation; confirming
 * cancels as `confirmCancelLink` says. Used by the `/cancel` form and by the annual reminder (its one-click cancel).
 * Returns the absolute URL, in `locale`'s path prefix.
 */
export async function issueCancelLink(
  tx: Tx,
  userId: string,
  locale: string,
  ttlMs: number = CANCEL_LINK_TTL_MS,
  now: Date = new Date(),
): Promise<string> {
  const token = randomToken(32);
  await tx
    .insert(cancelTokens)
    .values({ userId, tokenHash: sha256(token), expiresAt: new Date(now.getTime() + ttlMs) });
  return localeUrl(env().APP_ORIGIN, locale, `/cancel/?token=${token}`);
}

/**
 * `/cancel` without signing in (the EU withdrawal function), step 1: if `email` has a live subscription, e-mail it a
 * single-use cancel link valid 24 hours (only the SHA-256 of its token is stored). The answer is the same whether or
 * not the address is known, so the form cannot be used to find out who subscribes.
 */
export async function requestCancelLink(db: Db, email: string, locale: string): Promise<void> {
  const [user] = await db.select({ id: users.id }).from(users).where(eq(users.email, email.trim().toLowerCase()));
  if (!user || !(await liveSubscriptions(db, user.id)).length) return;
  await db.transaction(async (tx) => {
    const link = await issueCancelLink(tx, user.id, locale);
    await queueEmail(tx, { to: email, template: 'cancel-link', locale, params: { link } });
  });
}

/**
 * What an e-mailed cancel link can still do (a used link must not show the cancel button again):
 * `usable`, `used` (with the owner's newest subscription's state and the date its access ends), `expired` or
 * `unknown`. The token is 256 random bits, so the answer reveals nothing to a guesser.
 */
export async function cancelLinkState(db: Db, token: string): Promise<CancelLink> {
  const [row] = await db
    .select()
    .from(cancelTokens)
    .where(eq(cancelTokens.tokenHash, sha256(token)));
  if (!row) return { state: 'unknown' as const, subscription: null };
  if (!row.usedAt) {
    return { state: row.expiresAt > new Date() ? ('usable' as const) : ('expired' as const), subscription: null };
  }
  const [sub] = await db
    .select()
    .from(subscriptions)
    .where(eq(subscriptions.userId, row.userId))
    .orderBy(desc(subscriptions.createdAt))
    .limit(1);
  return {
    state: 'used' as const,
    subscription: sub
      ? {
          status: sub.status,
          /** Cancelled at the period end: access ends at `endsAt`; false: it renews then. */
          cancelling: sub.cancelAt !== null,
          endsAt: (sub.cancelAt ?? sub.canceledAt ?? sub.currentPeriodEnd).toISOString(),
        }
      : null,
  };
}

/**
 * Step 2: the link's token cancels every live subscription of its owner at the next billing date, exactly as the
 * signed-in path does (`PUT /admin/user/cancelSubscribe`). A used, expired or unknown token: 410 `Api.cancelLinkInvalid`.
 */
export async function confirmCancelLink(db: Db, token: string) {
  const [claimed] = await db
    .update(cancelTokens)
    .set({ usedAt: new Date() })
    .where(
      and(
        eq(cancelTokens.tokenHash, sha256(token)),
        isNull(cancelTokens.usedAt),
        gt(cancelTokens.expiresAt, new Date()),
      ),
    )
    .returning({ userId: cancelTokens.userId });
  if (!claimed) throw new DomainError('gone', 'Api.cancelLinkInvalid');
  return cancelSubscriptions(db, claimed.userId, (sub) => paymentProvider(sub.provider).cancelAtPeriodEnd(sub));
}
