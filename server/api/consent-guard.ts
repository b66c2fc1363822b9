import 'server-only';
import { assertNotLimited, consume } from '../services/rate-limit';
import { notFound } from './errors';

/**
 * Looks up a consent code for a route of the owner's page; an unknown one spends a point of the per-IP guessing
 * limit (`consentMissPerIp`) and answers the same 404 as any missing record. An IP out of points gets 429 before any
 * lookup, so codes cannot be enumerated (ARCHITECTURE "security": rate limits on every code-bearing route).
 */
export async function guessingGuard<T>(ip: string | null, lookup: () => Promise<T | null>): Promise<T> {
  await assertNotLimited('consentMissPerIp', ip ?? 'unknown');
  const found = await lookup();
  if (found) return found;
  return guessMissed(ip);
}

/**
 * A consent code that names nothing: spends a point of `ip`'s guessing limit (`consentMissPerIp`), then throws the
 * 404 of any missing record (RateLimitedError, 429, when that was the last point). For a lookup that checked the
 * limit itself, in the same statement (services/locate/owner-signals.ts `savePosition`).
 */
export async function guessMissed(ip: string | null): Promise<never> {
  await consume('consentMissPerIp', ip ?? 'unknown');
  throw notFound();
}
