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
  await consume('consentMissPerIp', ip ?? 'unknown');
  throw notFound();
}
