import 'server-only';
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import type { BreachView, DataLeakReport } from '../../lib/api/types';
import { breachChecks, users } from '../db/schema';
import { ApiError, ErrorCode } from '../errors';
import { log } from '../observability/log';
import { BreachServiceError, breachProvider } from '../providers/breaches';

/** How long one account's breach list is reused before Have I Been Pwned is asked again (ms): a day (issue 15 §1). */
export const BREACH_CACHE_MS = 24 * 3600 * 1000;

/**
 * The data-leak check of a subscriber's **own account e-mail** (issue 15 §1): never an address given in the request,
 * so it cannot be used to look up someone else. The breach list is kept per account for `BREACH_CACHE_MS`; a new
 * e-mail is checked anew. Concurrent calls for one account wait on one advisory lock, so Have I Been Pwned is asked
 * once. Newest breaches first.
 *
 * Errors: 404 when the account is gone; 503 `Api.dataLeakUnavailable` when the service fails (unreachable,
 * time-out, refused key, its own rate limit) — never an empty list in its place.
 */
export async function dataLeakReport(db: Db, userId: string): Promise<DataLeakReport> {
  const provider = breachProvider();
  if (!provider) return { configured: false };
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`breaches:${userId}`}))`);
    const [user] = await tx.select({ email: users.email }).from(users).where(eq(users.id, userId));
    if (!user) throw new ApiError(404, ErrorCode.notFound, 'Api.notFound');
    const [cached] = await tx.select().from(breachChecks).where(eq(breachChecks.userId, userId));
    if (cached && cached.email === user.email && Date.now() - cached.checkedAt.getTime() < BREACH_CACHE_MS) {
      return {
        configured: true,
        email: user.email,
        checkedAt: cached.checkedAt.toISOString(),
        breaches: cached.breaches,
      };
    }
    let breaches: BreachView[];
    try {
      breaches = await provider.breachesOf(user.email);
    } catch (error) {
      if (!(error instanceof BreachServiceError)) throw error;
      log().warn({ err: error.message }, 'data-leak check failed');
      throw new ApiError(503, ErrorCode.unavailable, 'Api.dataLeakUnavailable');
    }
    breaches.sort((a, b) => b.breachDate.localeCompare(a.breachDate));
    const checkedAt = new Date();
    await tx
      .insert(breachChecks)
      .values({ userId, email: user.email, breaches, checkedAt })
      .onConflictDoUpdate({ target: breachChecks.userId, set: { email: user.email, breaches, checkedAt } });
    return { configured: true, email: user.email, checkedAt: checkedAt.toISOString(), breaches };
  });
}
