import 'server-only';
import { and, eq, lt, sql } from 'drizzle-orm';
import pLimit from 'p-limit';
import type { Db } from '../../db/client';
import { usernameCheckResults, usernameChecks } from '../../db/schema';
import { env } from '../../env';
import { notFound } from '../../errors';
import { log } from '../../observability/log';
import { assertNotLimited, consume, consumeAll, RateLimitedError } from '../rate-limit';
import { randomToken, sha256 } from '../tokens';
import { guardedRequest } from './username-fetch';
import { sitesToCheck, type WmnSite } from './username-sites';
import type { UsernameLookupView } from '../../../lib/contracts/username-lookup';
import { normalizeUsername } from '../../../lib/validation/username';

// The reverse username lookup (docs/features.md "Extra features"): a lookup and its results in `username_checks` and
// `username_check_results`, the pg-boss job that asks every site of the WhatsMyName list (./username-sites.ts) through
// the guarded requests of ./username-fetch.ts, the verdict per site, the service-wide and per-client budgets
// (services/rate-limit.ts), and the sweep that deletes lookups after an hour.

/** How long a lookup and its results are kept (ms): an hour. */
export const LOOKUP_TTL_MS = 3600_000;
/** How often a running lookup reads whether it was stopped (ms). */
const STOP_POLL_MS = 300;
/** The subject of the service-wide limits of the lookup: one budget for every process and worker. */
const SERVICE_WIDE = 'all';

export type Outcome = 'found' | 'not_found' | 'unknown';

/**
 * The WhatsMyName rule for one answer (its data set's definitions): `found` when the status is the site's `e_code`
 * and the body contains `e_string`; `not_found` when the status is `m_code` and the body contains `m_string` (an empty
 * string is contained in any body); anything else — another status, neither string, an error — is `unknown`.
 */
export function decide(
  site: Pick<WmnSite, 'e_code' | 'e_string' | 'm_code' | 'm_string'>,
  status: number,
  body: string,
) {
  if (status === site.e_code && body.includes(site.e_string)) return 'found' as const;
  if (status === site.m_code && body.includes(site.m_string)) return 'not_found' as const;
  return 'unknown' as const;
}

/** The username as a site takes it: its `strip_bad_char` characters removed. */
function accountFor(site: WmnSite, username: string): string {
  const bad = site.strip_bad_char ? [...site.strip_bad_char] : [];
  return [...username].filter((c) => !bad.includes(c)).join('');
}

/** The public profile address shown for a found site: `uri_pretty` (for API checks) or `uri_check`, username filled in. */
export function profileUrl(site: WmnSite, username: string): string {
  return (site.uri_pretty ?? site.uri_check).replaceAll('{account}', encodeURIComponent(accountFor(site, username)));
}

/**
 * Asks one site about `username`: `uri_check` with the username URL-encoded (or `post_body` with it,
 * as POST with the site's headers), a browser user agent, no cookies, through the SSRF guard of `guardedRequest`,
 * within `timeoutMs`; then `decide`. `beforeRequest` runs before each request leaves (the first one before the
 * site's `timeoutMs` starts: waiting for the request budget is not the site's slowness). A time-out, a refused
 * address or URL, a network error is `unknown`; the one error thrown is `beforeRequest`'s RateLimitedError (the
 * service's request budget is spent: the site was not asked, or not to the end).
 */
export async function checkSite(
  site: WmnSite,
  username: string,
  options: {
    timeoutMs: number;
    allowLoopback: boolean;
    signal?: AbortSignal;
    beforeRequest?: () => Promise<void>;
  },
): Promise<Outcome> {
  const account = accountFor(site, username);
  const spend = options.beforeRequest;
  try {
    if (options.signal?.aborted) return 'unknown';
    await spend?.();
    const signals = [AbortSignal.timeout(options.timeoutMs), ...(options.signal ? [options.signal] : [])];
    const answer = await guardedRequest(
      {
        url: site.uri_check.replaceAll('{account}', encodeURIComponent(account)),
        method: site.post_body ? 'POST' : 'GET',
        headers: site.headers ?? {},
        body: site.post_body?.replaceAll('{account}', account),
        keepStatuses: [site.e_code, site.m_code],
      },
      {
        signal: AbortSignal.any(signals),
        allowLoopback: options.allowLoopback,
        beforeRequest: spend && ((hop) => (hop === 0 ? Promise.resolve() : spend())),
      },
    );
    return decide(site, answer.status, answer.body);
  } catch (error) {
    if (error instanceof RateLimitedError) throw error;
    return 'unknown';
  }
}

/**
 * Starts a lookup of `username` (validated by `usernameBody`): stores it under a new random id (only its SHA-256 is
 * kept), covering the sites of `sitesToCheck(includeNsfw)`, for `LOOKUP_TTL_MS`. Returns the id (shown once, the key
 * to the result page) and the number of sites. The caller enqueues the job. Admitted only while the hour's
 * outbound requests (`usernameLookupFetches`) are not spent and every site fits in the hour's service-wide budget of
 * sites (`usernameLookupSites`; both USERNAME_LOOKUP_FETCHES_PER_HOUR, counted atomically in PostgreSQL, so
 * concurrent starts in any process never admit more): otherwise RateLimitedError with `Api.lookupBusy` and the
 * seconds until that hour ends (429, Retry-After).
 */
export async function createLookup(db: Db, username: string, includeNsfw: boolean) {
  const id = randomToken(16);
  const total = sitesToCheck(includeNsfw).length;
  await assertNotLimited('usernameLookupFetches', SERVICE_WIDE, 'Api.lookupBusy');
  await consumeAll('usernameLookupSites', SERVICE_WIDE, total, 'Api.lookupBusy');
  await db.insert(usernameChecks).values({
    idHash: sha256(id),
    username: normalizeUsername(username),
    includeNsfw,
    total,
    expiresAt: new Date(Date.now() + LOOKUP_TTL_MS),
  });
  return { id, total };
}

/**
 * A lookup's progress and the sites found so far, by id; 404 `Api.notFound` when unknown or older than an hour.
 * `status` is the stored one, except `capped` for a lookup the job ended (`done`) with sites never answered: only the
 * spent request budget ends a job so (every other path stores an answer per site). `notChecked` counts the sites
 * never answered once the lookup is over (0 while it runs).
 */
export async function lookupView(db: Db, id: string): Promise<UsernameLookupView> {
  const [check] = await db
    .select()
    .from(usernameChecks)
    .where(eq(usernameChecks.idHash, sha256(id)));
  if (!check || check.expiresAt.getTime() <= Date.now()) throw notFound();
  const rows = await db
    .select({ outcome: usernameCheckResults.outcome, site: usernameCheckResults.site })
    .from(usernameCheckResults)
    .where(eq(usernameCheckResults.checkIdHash, check.idHash));
  const sites = new Map(sitesToCheck(check.includeNsfw).map((s) => [s.name, s]));
  const found = rows
    .filter((r) => r.outcome === 'found' && sites.has(r.site))
    .map((r) => {
      const site = sites.get(r.site)!;
      return { site: site.name, category: site.cat, url: profileUrl(site, check.username) };
    })
    .sort((a, b) => a.site.localeCompare(b.site));
  const checked = rows.length;
  return {
    username: check.username,
    status: check.status === 'done' && checked < check.total ? 'capped' : check.status,
    includeNsfw: check.includeNsfw,
    total: check.total,
    checked,
    notChecked: check.status === 'running' ? 0 : Math.max(0, check.total - checked),
    unknown: rows.filter((r) => r.outcome === 'unknown').length,
    found,
    expiresAt: check.expiresAt.toISOString(),
  };
}

/** Stops a running lookup (the job stops asking sites within `STOP_POLL_MS`); a finished one is left as it is. */
export async function stopLookup(db: Db, id: string): Promise<UsernameLookupView> {
  await db
    .update(usernameChecks)
    .set({ status: 'stopped' })
    .where(and(eq(usernameChecks.idHash, sha256(id)), eq(usernameChecks.status, 'running')));
  return lookupView(db, id);
}

/**
 * The job of one lookup (queue `username-check`, payload `{ idHash }`): asks each site not answered yet, at most
 * `USERNAME_LOOKUP_CONCURRENCY` at once, each within `USERNAME_LOOKUP_TIMEOUT_MS`, storing each answer as it comes;
 * stops asking (and aborts requests under way) once the lookup is stopped or expired; then marks it `done`. A job run
 * again (a crashed worker) resumes with the sites left. Every outbound request (each redirect hop too) first spends
 * one request of the service-wide hourly budget (`usernameLookupFetches`, USERNAME_LOOKUP_FETCHES_PER_HOUR); once one
 * is refused, no further site is asked (those under way finish), the sites left stay unanswered and the lookup ends
 * `done` with fewer answers than sites, which `lookupView` shows as `capped`.
 */
export async function runUsernameCheck(db: Db, idHash: string): Promise<void> {
  const [check] = await db.select().from(usernameChecks).where(eq(usernameChecks.idHash, idHash));
  if (!check || check.status !== 'running') return;
  const e = env();
  const answered = new Set(
    (
      await db
        .select({ site: usernameCheckResults.site })
        .from(usernameCheckResults)
        .where(eq(usernameCheckResults.checkIdHash, idHash))
    ).map((r) => r.site),
  );
  const stop = new AbortController();
  const watch = setInterval(() => {
    db.select({ status: usernameChecks.status, expiresAt: usernameChecks.expiresAt })
      .from(usernameChecks)
      .where(eq(usernameChecks.idHash, idHash))
      .then(([row]) => {
        if (!row || row.status !== 'running' || row.expiresAt.getTime() <= Date.now()) stop.abort();
      })
      .catch((error: unknown) => log().warn({ err: (error as Error).message }, 'username lookup: stop check failed'));
  }, STOP_POLL_MS);
  const limit = pLimit(e.USERNAME_LOOKUP_CONCURRENCY);
  let capped = false;
  const spend = () => consume('usernameLookupFetches', SERVICE_WIDE);
  try {
    await Promise.all(
      sitesToCheck(check.includeNsfw)
        .filter((site) => !answered.has(site.name))
        .map((site) =>
          limit(async () => {
            if (stop.signal.aborted || capped) return;
            let outcome: Outcome;
            try {
              outcome = await checkSite(site, check.username, {
                timeoutMs: e.USERNAME_LOOKUP_TIMEOUT_MS,
                allowLoopback: e.USERNAME_LOOKUP_ALLOW_LOOPBACK,
                signal: stop.signal,
                beforeRequest: spend,
              });
            } catch (error) {
              if (!(error instanceof RateLimitedError)) throw error;
              if (!capped) log().warn({ site: site.name }, 'username lookup: hourly request budget spent, stopping');
              capped = true;
              return;
            }
            if (stop.signal.aborted) return;
            await db
              .insert(usernameCheckResults)
              .values({ checkIdHash: idHash, site: site.name, outcome })
              .onConflictDoNothing();
          }),
        ),
    );
  } finally {
    clearInterval(watch);
  }
  await db
    .update(usernameChecks)
    .set({ status: 'done' })
    .where(and(eq(usernameChecks.idHash, idHash), eq(usernameChecks.status, 'running')));
}

/** Deletes lookups (and their results) past their hour; returns how many. Run by the location upkeep's minute job. */
export async function pruneLookups(db: Db): Promise<number> {
  const gone = await db
    .delete(usernameChecks)
    .where(lt(usernameChecks.expiresAt, sql`now()`))
    .returning({ idHash: usernameChecks.idHash });
  return gone.length;
}
