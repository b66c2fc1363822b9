import 'server-only';
import { breachedAccount, pwnedPasswordRange } from 'hibp';
import type { BreachView } from '../../lib/contracts/data-leaks';
import { env } from '../env';

/** How long one call to Have I Been Pwned or Pwned Passwords may take (ms) before it counts as unreachable. */
export const HIBP_TIMEOUT_MS = 5000;

/** A failure of the breach service (unreachable, time-out, 401/403/429/5xx): shown as "try later", never as "none". */
export class BreachServiceError extends Error {
  constructor(cause: unknown) {
    super(`breach service: ${(cause as Error)?.message ?? String(cause)}`, { cause });
    this.name = 'BreachServiceError';
  }
}

/** Breaches of an account e-mail. */
export interface BreachProvider {
  /** Every breach `email` appears in, [] when none; throws BreachServiceError when the service fails. */
  breachesOf(email: string): Promise<BreachView[]>;
}

/** The Pwned Passwords range API (k-anonymity). */
export interface PasswordRangeProvider {
  /**
   * The SHA-1 suffixes (35 upper-case hex characters) known for a 5-character `prefix`, with how often each was seen
   * (padding entries count 0); throws when the service is unreachable.
   */
  suffixes(prefix: string): Promise<Record<string, number>>;
}

/** Whether this server has an HIBP key, i.e. offers the data-leak check. */
export function dataLeakCheckConfigured(): boolean {
  return !!env().HIBP_API_KEY;
}

function userAgent(): string {
  return `${env().NEXT_PUBLIC_PRODUCT_NAME} account security check`;
}

/**
 * The HIBP breach provider (`breachedAccount` of the `hibp` package, `truncate: false` for the full breach model, API
 * key in `HIBP-API-Key`), or null when `HIBP_API_KEY` is unset: the feature is then not configured on this server.
 */
export function breachProvider(): BreachProvider | null {
  const e = env();
  if (!e.HIBP_API_KEY) return null;
  const options = {
    apiKey: e.HIBP_API_KEY,
    baseUrl: e.HIBP_API_URL,
    truncate: false,
    includeUnverified: true,
    timeoutMs: HIBP_TIMEOUT_MS,
    userAgent: userAgent(),
  };
  return {
    async breachesOf(email) {
      const found = await breachedAccount(email, options).catch((error: unknown) => {
        throw new BreachServiceError(error);
      });
      return (found ?? []).map((b) => ({
        name: b.Name,
        title: b.Title,
        domain: b.Domain ?? '',
        breachDate: b.BreachDate,
        dataClasses: b.DataClasses ?? [],
        isVerified: b.IsVerified,
        isSensitive: b.IsSensitive,
      }));
    },
  };
}

/**
 * The Pwned Passwords provider (`pwnedPasswordRange` with padding, so the answer's size does not hint at the prefix),
 * or null when `PWNED_PASSWORDS_URL=off`.
 */
export function passwordRangeProvider(): PasswordRangeProvider | null {
  const base = env().PWNED_PASSWORDS_URL;
  if (base === 'off') return null;
  return {
    suffixes: (prefix) =>
      pwnedPasswordRange(prefix, {
        baseUrl: base,
        addPadding: true,
        timeoutMs: HIBP_TIMEOUT_MS,
        userAgent: userAgent(),
      }),
  };
}
