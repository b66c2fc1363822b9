import 'server-only';
import { sql, type SQL } from 'drizzle-orm';
import { RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';
import { getDbState } from '../db/client';
import { rateLimits } from '../db/schema';
import { env } from '../env';
import { clientKey } from './client-ip';

/**
 * Rate limits kept in PostgreSQL (table `rate_limits`, rate-limiter-flexible), so every web process shares them
 * (docs/rules.md#runtime, #security). Points per window (seconds).
 */
export const LIMITS = {
  /** Sign-in attempts per client IP. */
  loginPerIp: { points: 30, duration: 15 * 60 },
  /** Failed sign-ins per e-mail address (hash) and client IP: slows a guesser without touching the owner elsewhere. */
  loginFailuresPerAccountIp: { points: 10, duration: 15 * 60 },
  /**
   * Failed sign-ins per e-mail address (hash) from everywhere: a ceiling for guessers spread over many IPs;
   * LOGIN_FAILURES_PER_ACCOUNT_PER_HOUR (100).
   */
  get loginFailuresPerAccount() {
    return { points: env().LOGIN_FAILURES_PER_ACCOUNT_PER_HOUR, duration: 3600 };
  },
  /** Reset codes e-mailed per e-mail address (hash), registered or not. */
  codesPerAccount: { points: 5, duration: 3600 },
  /** Reset-code requests per client IP. */
  codesPerIp: { points: 20, duration: 3600 },
  /** Password resets tried per client IP (each checks a code). */
  resetsPerIp: { points: 20, duration: 15 * 60 },
  /** Current-password checks per account when changing the password. */
  passwordChecksPerAccount: { points: 10, duration: 15 * 60 },
  /** E-mail availability checks per client IP. */
  checkEmailPerIp: { points: 20, duration: 10 * 60 },
  /** Unknown consent codes tried per client IP (guessing). */
  consentMissPerIp: { points: 20, duration: 10 * 60 },
  /**
   * Positions and presence signals written per location request (counted by its consent code's hash) and minute: a
   * moving phone sends a fix per move beyond its accuracy (lib/geo.ts `shouldSendFix`, at most one a second), plus a
   * heartbeat every 20 s.
   */
  positionsPerRequest: { points: 90, duration: 60 },
  /** Push subscriptions and unsubscriptions per account (a browser makes one per visit at most). */
  pushChangesPerAccount: { points: 30, duration: 3600 },
  /**
   * Safety-centre code asks per phone number and client address (subject `number|clientKey`), known numbers or not:
   * what one address may spend of the number's ceiling below, so that no address alone can shut the owner out
   * (docs/decisions/0016-safety-code-limits.md).
   */
  safetyCodesPerNumberAddress: { points: 3, duration: 24 * 3600 },
  /**
   * Safety-centre code asks per phone number from everywhere, known numbers or not: the ceiling against SMS floods,
   * spent only by asks that passed `safetyCodesPerNumberAddress` (it takes four addresses to reach it). Separate from
   * the consent-SMS caps (services/locate/sms-guards.ts), which requesters can fill.
   */
  safetyCodesPerNumber: { points: 10, duration: 24 * 3600 },
  /** Safety-centre one-time code requests per client IP, known numbers or not. */
  safetyCodesPerIp: { points: 10, duration: 3600 },
  /** Safety-centre one-time code checks per client IP (each code also takes at most 5 tries from all clients). */
  safetyChecksPerIp: { points: 30, duration: 15 * 60 },
  /** Cancel links e-mailed per e-mail address (`/cancel` without signing in). */
  cancelLinksPerEmail: { points: 3, duration: 3600 },
  /** Cancel-link and order requests per client IP. */
  cancelLinksPerIp: { points: 20, duration: 3600 },
  /** Contact-form messages per client IP. */
  contactPerIp: { points: 5, duration: 3600 },
  /** Operator console sign-in attempts per client IP. */
  opsLoginPerIp: { points: 20, duration: 15 * 60 },
  /**
   * Failed operator sign-ins per operator e-mail (hash) and client IP: a guesser elsewhere cannot use up the
   * operator's own tries (as `loginFailuresPerAccountIp`). Spent before the check, cleared by a success.
   */
  opsLoginFailuresPerEmailIp: { points: 5, duration: 15 * 60 },
  /**
   * Failed operator sign-ins per operator e-mail (hash) from everywhere, spent before the check (so that a burst
   * cannot pass it) and given back by a success: a ceiling for guessers spread over many IPs, high enough that it
   * takes many networks to keep an operator out.
   */
  opsLoginFailuresPerEmail: { points: 100, duration: 3600 },
  /** Discount offers shown per client IP (each is a row). */
  offersPerIp: { points: 120, duration: 3600 },
  /**
   * Order status reads (`GET /portal/user/checkRegister/{code}`) per client IP: the pay-status page polls every 3 s
   * (20 a minute per open page), so this leaves room for several buyers behind one address.
   */
  orderStatusPerIp: { points: 120, duration: 60 },
  /**
   * Stripe look-ups of a pending order's Checkout Session from the return page, per order: past this the status is
   * answered from the database alone until the window ends (the webhook still completes the order).
   */
  stripeReturnChecksPerOrder: { points: 30, duration: 60 },
  /** Data-leak checks per account; HIBP itself is asked at most once a day per account. */
  dataLeakChecksPerAccount: { points: 20, duration: 3600 },
  /** Orders created per client IP (each one may lead to an SMS); ORDERS_PER_IP_PER_HOUR. */
  get ordersPerIp() {
    return { points: env().ORDERS_PER_IP_PER_HOUR, duration: 3600 };
  },
  /** Reverse username lookups started per client IP; USERNAME_LOOKUPS_PER_IP_PER_HOUR. */
  get usernameLookupsPerIp() {
    return { points: env().USERNAME_LOOKUPS_PER_IP_PER_HOUR, duration: 3600 };
  },
  /**
   * Sites admitted to reverse username lookups per hour, service-wide (one subject, `all`): a lookup starts only when
   * every site it covers still fits (`consumeAll`), so lookups accepted in an hour can all finish;
   * USERNAME_LOOKUP_FETCHES_PER_HOUR.
   */
  get usernameLookupSites() {
    return { points: env().USERNAME_LOOKUP_FETCHES_PER_HOUR, duration: 3600 };
  },
  /**
   * Outbound requests of the reverse username lookup per hour, service-wide (one subject, `all`), each redirect hop
   * included: spent just before each request goes out, so the server never sends more, whatever the number of
   * lookups, processes and workers; USERNAME_LOOKUP_FETCHES_PER_HOUR.
   */
  get usernameLookupFetches() {
    return { points: env().USERNAME_LOOKUP_FETCHES_PER_HOUR, duration: 3600 };
  },
  /** Operation-log events, button clicks and ad events per client IP (each is a row); TRACKING_PER_IP_PER_HOUR. */
  get trackingPerIp() {
    return { points: env().TRACKING_PER_IP_PER_HOUR, duration: 3600 };
  },
} as const;

export type LimitName = keyof typeof LIMITS;

const key = Symbol.for('app.rate-limiters');
const store = globalThis as unknown as { [key]?: Promise<Record<LimitName, RateLimiterPostgres>> };

function limiters() {
  store[key] ??= getDbState().then(({ pool }) => {
    // rate-limiter-flexible names its statements (`rate_limits:rlflx-upsert`), which node-postgres prepares once per
    // connection; behind a transaction pooler the next query may run on another server connection, which has not
    // prepared it ("prepared statement … does not exist"; pgbouncer.org, "Features": protocol-level prepared plans need
    // `max_prepared_statements`, PgBouncer 1.21+). Its queries go out unnamed, as every other query of the app does.
    const unnamed = {
      query: (q: { text: string; values?: unknown[] }) => pool.query({ text: q.text, values: q.values }),
    };
    const make = (name: LimitName) =>
      new RateLimiterPostgres({
        storeClient: unnamed,
        storeType: 'pool',
        tableName: 'rate_limits',
        tableCreated: true,
        keyPrefix: name,
        clearExpiredByTimeout: true,
        ...LIMITS[name],
      });
    return Object.fromEntries((Object.keys(LIMITS) as LimitName[]).map((n) => [n, make(n)])) as Record<
      LimitName,
      RateLimiterPostgres
    >;
  });
  return store[key];
}

/**
 * The parameters a refusal's message may use for a wait of `seconds` (an `Api.*` message, server/api/app.ts): the
 * `seconds` themselves, whole `minutes` rounded up, and `hours` rounded to the nearest (0 under 50 minutes), so that a
 * message can say the wait in words ("in about an hour", "in about 5 hours", "in about 20 minutes") with ICU plurals.
 */
export function waitParams(seconds: number): { seconds: number; minutes: number; hours: number } {
  return {
    seconds,
    minutes: Math.ceil(seconds / 60),
    hours: seconds < 50 * 60 ? 0 : Math.max(1, Math.round(seconds / 3600)),
  };
}

/** A wait of `ms` milliseconds as the whole seconds of a Retry-After header, at least 1. */
function waitSeconds(ms: number): number {
  return Math.max(1, Math.ceil(ms / 1000));
}

/**
 * Thrown when a limit is reached; `retryAfterSeconds` goes to the Retry-After header, `messageKey` (an `Api.*` key
 * taking `{seconds}` and `{minutes}`) is the answer's message.
 */
export class RateLimitedError extends Error {
  constructor(
    readonly retryAfterSeconds: number,
    readonly messageKey = 'Api.tooMany',
  ) {
    super('rate limited');
    this.name = 'RateLimitedError';
  }
}

/**
 * The key a limit counts `subject` under: for the per-client-IP limits (names ending in `PerIp`) the client's
 * `clientKey` (an IPv6 client's /64, an IPv4-mapped client's IPv4 address), so that rotating through the addresses
 * of one network does not reset them; any other subject as it is. A limit keyed on an IP combined with something
 * else builds its subject with `clientKey` itself.
 */
function keyOf(name: LimitName, subject: string): string {
  return name.endsWith('PerIp') ? clientKey(subject) : subject;
}

/**
 * Spends one point of `name` for `subject` (an IP or an account id). Throws RateLimitedError (with `messageKey`,
 * default `Api.tooMany`) when none is left; other failures (the database) propagate.
 */
export async function consume(name: LimitName, subject: string, messageKey?: string): Promise<void> {
  try {
    await (await limiters())[name].consume(keyOf(name, subject));
  } catch (error) {
    if (error instanceof RateLimiterRes) throw new RateLimitedError(waitSeconds(error.msBeforeNext), messageKey);
    throw error;
  }
}

/**
 * Throws RateLimitedError (with `messageKey`, default `Api.tooMany`) when `subject` has no points of `name` left,
 * without spending one.
 */
export async function assertNotLimited(name: LimitName, subject: string, messageKey?: string): Promise<void> {
  const res = await (await limiters())[name].get(keyOf(name, subject));
  if (res && res.consumedPoints >= LIMITS[name].points) {
    throw new RateLimitedError(waitSeconds(res.msBeforeNext), messageKey);
  }
}

/** Forgets the points of `name` for `subject` (e.g. failed sign-ins after a successful one). */
export async function resetLimit(name: LimitName, subject: string): Promise<void> {
  await (await limiters())[name].delete(keyOf(name, subject));
}

/**
 * Spends `points` of `name` for `subject` all or nothing, atomically in PostgreSQL (one upsert): when they do not all
 * fit in what is left of the window, the ones just counted are given back and RateLimitedError(seconds until the
 * window ends, `messageKey`) is thrown. Between the refusal and the give-back, a concurrent caller may be refused
 * too (never let past the limit).
 */
export async function consumeAll(name: LimitName, subject: string, points: number, messageKey?: string): Promise<void> {
  const limiter = (await limiters())[name];
  const key = keyOf(name, subject);
  try {
    await limiter.consume(key, points);
  } catch (error) {
    if (!(error instanceof RateLimiterRes)) throw error;
    await limiter.reward(key, points);
    throw new RateLimitedError(waitSeconds(error.msBeforeNext), messageKey);
  }
}

/** Gives `points` (default 1) of `name` back to `subject`, e.g. a try refused for a reason that is not the client's. */
export async function giveBack(name: LimitName, subject: string, points = 1): Promise<void> {
  await (await limiters())[name].reward(keyOf(name, subject), points);
}

/**
 * The row key under which rate-limiter-flexible keeps `subject`'s points of `name` in `rate_limits`: its keyPrefix
 * (the limit's name), a colon, then `keyOf`'s key (rate-limiter-flexible's `getKey`).
 */
function storedKey(name: LimitName, subject: string): string {
  return `${name}:${keyOf(name, subject)}`;
}

/**
 * For a statement that checks a limit where it writes (services/locate/owner-signals.ts `savePosition`): an SQL
 * condition, true when `subject` has no point of `name` left at `nowMs` (ms since the epoch), as `assertNotLimited`
 * reads it.
 */
export function limitReachedSql(name: LimitName, subject: string, nowMs: number): SQL {
  return sql`exists (select 1 from ${rateLimits} where ${rateLimits.key} = ${storedKey(name, subject)}
    and ${rateLimits.expire} > ${nowMs} and ${rateLimits.points} >= ${LIMITS[name].points})`;
}

/**
 * For a `WITH` of such a statement: spends one point of `name` for `subject` at `nowMs` (ms since the epoch), only for
 * each row `source` (an SQL relation name, e.g. a CTE) yields, with rate-limiter-flexible's own upsert (a new window
 * when the stored one has ended), and RETURNs the row's `points` and `expire` (ms since the epoch). The points are
 * over the limit when `points` > `LIMITS[name].points`; `retryAfterSeconds(expire, nowMs)` gives the wait. The
 * library's `consume` and `get` see these points, and this sees theirs (tests/rate-limit-sql.test.ts).
 */
export function consumeOneSql(name: LimitName, subject: string, nowMs: number, source: SQL): SQL {
  const expire = nowMs + LIMITS[name].duration * 1000;
  return sql`insert into ${rateLimits} (key, points, expire) select ${storedKey(name, subject)}, 1, ${expire} from ${source}
    on conflict (key) do update set
      points = case when ${rateLimits.expire} <= ${nowMs} then 1 else ${rateLimits.points} + 1 end,
      expire = case when ${rateLimits.expire} <= ${nowMs} then ${expire} else ${rateLimits.expire} end
    returning points, expire`;
}

/** Whole seconds (at least 1) from `nowMs` until a limit's window ending at `expireMs` ends (for Retry-After). */
export function retryAfterSeconds(expireMs: number, nowMs: number): number {
  return waitSeconds(expireMs - nowMs);
}

/** Whole seconds (at least 1) until `subject` has points of `name` again, for a refusal found by `limitReachedSql`. */
export async function retryAfterOf(name: LimitName, subject: string): Promise<number> {
  const res = await (await limiters())[name].get(keyOf(name, subject));
  return waitSeconds(res?.msBeforeNext ?? 0);
}
