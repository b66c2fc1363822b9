import 'server-only';
import { eq, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import type { BreachView, DataLeakReport } from '../../../lib/contracts/data-leaks';
import { breachChecks, users } from '../../db/schema';
import { DomainError, notFound } from '../../errors';
import { log } from '../../observability/log';
import { BreachServiceError, breachProvider, type BreachProvider } from '../../providers/breaches';

// The data-leak check of a subscriber's own account e-mail against Have I Been Pwned API v3 (docs/features.md "Extra
// features"), its day-long cache in `breach_checks`, and no database connection held while the service answers
// (docs/decisions/0009-no-network-call-inside-a-transaction.md).

/** How long one account's breach list is reused before Have I Been Pwned is asked again (ms): a day. */
export const BREACH_CACHE_MS = 24 * 3600 * 1000;

/** Checks of Have I Been Pwned under way in this process, by user id: concurrent calls share one. */
const inFlight = new Map<string, Promise<DataLeakReport>>();

/**
 * The data-leak check of a subscriber's **own account e-mail**: never an address given in the request, so it cannot
 * be used to look up someone else. The breach list is kept per account for `BREACH_CACHE_MS`; a new e-mail is
 * checked anew. Newest breaches first.
 *
 * Have I Been Pwned (up to HIBP_TIMEOUT_MS) is asked with no database connection held: the cache is read first, the
 * service asked, and the answer stored in a short transaction that re-reads the account under an advisory lock per
 * account (a newer answer stored meanwhile by another process is kept and returned; an e-mail changed meanwhile is
 * checked anew). Concurrent calls for one account in one process share one request to the service; across web
 * processes the service may be asked once per process.
 *
 * Errors: 404 when the account is gone; 503 `Api.dataLeakUnavailable` when the service fails (unreachable,
 * time-out, refused key, its own rate limit) — never an empty list in its place.
 */
export async function dataLeakReport(db: Db, userId: string): Promise<DataLeakReport> {
  const provider = breachProvider();
  if (!provider) return { configured: false };
  const { email, report } = await cachedReport(db, userId, Date.now());
  if (report) return report;
  let pending = inFlight.get(userId);
  if (!pending) {
    pending = askAndStore(db, provider, userId, email).finally(() => inFlight.delete(userId));
    inFlight.set(userId, pending);
  }
  return pending;
}

/**
 * The account's e-mail and its breach report when one for that e-mail is younger than BREACH_CACHE_MS at `now`
 * (ms), else `report: null`. Throws 404 when the account is gone.
 */
async function cachedReport(
  db: Db | Tx,
  userId: string,
  now: number,
): Promise<{ email: string; report: DataLeakReport | null }> {
  const [user] = await db.select({ email: users.email }).from(users).where(eq(users.id, userId));
  if (!user) throw notFound();
  const [cached] = await db.select().from(breachChecks).where(eq(breachChecks.userId, userId));
  const fresh = cached && cached.email === user.email && now - cached.checkedAt.getTime() < BREACH_CACHE_MS;
  return {
    email: user.email,
    report: fresh
      ? { configured: true, email: user.email, checkedAt: cached.checkedAt.toISOString(), breaches: cached.breaches }
      : null,
  };
}

/** Asks the service about `email` (no connection held), then stores the answer in a short transaction. */
async function askAndStore(db: Db, provider: BreachProvider, userId: string, email: string): Promise<DataLeakReport> {
  let breaches: BreachView[];
  try {
    breaches = await provider.breachesOf(email);
  } catch (error) {
    if (!(error instanceof BreachServiceError)) throw error;
    log().warn({ err: error.message }, 'data-leak check failed');
    throw new DomainError('unavailable', 'Api.dataLeakUnavailable');
  }
  breaches.sort((a, b) => b.breachDate.localeCompare(a.breachDate));
  const checkedAt = new Date();
  const stored = await db.transaction(async (tx): Promise<{ report: DataLeakReport } | { changedTo: string }> => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`breaches:${userId}`}))`);
    const now = await cachedReport(tx, userId, checkedAt.getTime());
    // The account's e-mail changed while the service was asked: that answer is about another address.
    if (now.email !== email) return { changedTo: now.email };
    if (now.report) return { report: now.report };
    await tx
      .insert(breachChecks)
      .values({ userId, email, breaches, checkedAt })
      .onConflictDoUpdate({ target: breachChecks.userId, set: { email, breaches, checkedAt } });
    return { report: { configured: true as const, email, checkedAt: checkedAt.toISOString(), breaches } };
  });
  return 'report' in stored ? stored.report : askAndStore(db, provider, userId, stored.changedTo);
}
