import 'server-only';
import { RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';
import { getDbState } from '../db/client';
import { env } from '../env';

/**
 * Rate limits kept in PostgreSQL (table `rate_limits`, rate-limiter-flexible), so every web process shares them
 * (ARCHITECTURE §3, §6). Points per window (seconds).
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
  /** Positions written per location request (the page sends at most one every 10 s). */
  positionsPerRequest: { points: 30, duration: 60 },
  /** Cancel links e-mailed per e-mail address (`/cancel` without signing in). */
  cancelLinksPerEmail: { points: 3, duration: 3600 },
  /** Cancel-link and order requests per client IP. */
  cancelLinksPerIp: { points: 20, duration: 3600 },
  /** Contact-form messages per client IP. */
  contactPerIp: { points: 5, duration: 3600 },
  /** Operator console sign-in attempts per client IP (issue 16 §3). */
  opsLoginPerIp: { points: 20, duration: 15 * 60 },
  /**
   * Failed operator sign-ins per operator e-mail (hash) and client IP: a guesser elsewhere cannot use up the
   * operator's own tries (as `loginFailuresPerAccountIp`).
   */
  opsLoginFailuresPerEmailIp: { points: 5, duration: 15 * 60 },
  /**
   * Failed operator sign-ins per operator e-mail (hash) from everywhere: a ceiling for guessers spread over many IPs,
   * high enough that it takes many addresses to keep an operator out.
   */
  opsLoginFailuresPerEmail: { points: 100, duration: 3600 },
  /** Discount offers shown per client IP (each is a row). */
  offersPerIp: { points: 120, duration: 3600 },
  /** Data-leak checks per account (issue 15 §1); HIBP itself is asked at most once a day per account. */
  dataLeakChecksPerAccount: { points: 20, duration: 3600 },
  /** Orders created per client IP (each one may lead to an SMS); ORDERS_PER_IP_PER_HOUR. */
  get ordersPerIp() {
    return { points: env().ORDERS_PER_IP_PER_HOUR, duration: 3600 };
  },
  /** Reverse username lookups started per client IP (issue 15 §2); USERNAME_LOOKUPS_PER_IP_PER_HOUR. */
  get usernameLookupsPerIp() {
    return { points: env().USERNAME_LOOKUPS_PER_IP_PER_HOUR, duration: 3600 };
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
    const make = (name: LimitName) =>
      new RateLimiterPostgres({
        storeClient: pool,
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

/** Thrown when a limit is reached; `retryAfterSeconds` goes to the Retry-After header. */
export class RateLimitedError extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super('rate limited');
    this.name = 'RateLimitedError';
  }
}

/**
 * Spends one point of `name` for `subject` (an IP or an account id). Throws RateLimitedError when none is left;
 * other failures (the database) propagate.
 */
export async function consume(name: LimitName, subject: string): Promise<void> {
  try {
    await (await limiters())[name].consume(subject);
  } catch (error) {
    if (error instanceof RateLimiterRes) throw new RateLimitedError(Math.max(1, Math.ceil(error.msBeforeNext / 1000)));
    throw error;
  }
}

/** Throws RateLimitedError when `subject` has no points of `name` left, without spending one. */
export async function assertNotLimited(name: LimitName, subject: string): Promise<void> {
  const res = await (await limiters())[name].get(subject);
  if (res && res.consumedPoints >= LIMITS[name].points) {
    throw new RateLimitedError(Math.max(1, Math.ceil(res.msBeforeNext / 1000)));
  }
}

/** Forgets the points of `name` for `subject` (e.g. failed sign-ins after a successful one). */
export async function resetLimit(name: LimitName, subject: string): Promise<void> {
  await (await limiters())[name].delete(subject);
}
