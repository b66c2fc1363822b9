import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { getDb } from '@/server/db/client';
import {
  LIMITS,
  RateLimitedError,
  assertNotLimited,
  consume,
  consumeOneSql,
  limitReachedSql,
  retryAfterSeconds,
} from '@/server/services/rate-limit';

// The SQL forms of a limit (for a statement that checks a limit where it writes) and rate-limiter-flexible's own
// calls must count the same points in the same rows: each sees what the other spent.

const subject = () => `sql-${Date.now()}-${Math.random().toString(36).slice(2)}`;

/** Spends one point of positionsPerRequest for `key` through the SQL form; returns the row's points and expire. */
async function spendBySql(key: string, nowMs = Date.now()) {
  const { rows } = await (
    await getDb()
  ).execute<{ points: number; expire: string }>(sql`
    with one as (select 1), counted as (${consumeOneSql('positionsPerRequest', key, nowMs, sql`one`)})
    select points, expire from counted`);
  return { points: Number(rows[0].points), expire: Number(rows[0].expire) };
}

/** Whether the SQL form finds no point of `name` left for `key`. */
async function reachedBySql(name: 'positionsPerRequest' | 'consentMissPerIp', key: string) {
  const { rows } = await (
    await getDb()
  ).execute<{ reached: boolean }>(sql`select ${limitReachedSql(name, key, Date.now())} as reached`);
  return rows[0].reached;
}

describe('rate limits in SQL and through rate-limiter-flexible', () => {
  it('count the same points: the library refuses after points spent in SQL, and SQL sees the library’s', async () => {
    const key = subject();
    const max = LIMITS.positionsPerRequest.points;
    for (let i = 1; i < max; i++) await spendBySql(key);
    await consume('positionsPerRequest', key); // the last point, through the library
    expect(await reachedBySql('positionsPerRequest', key)).toBe(true);
    await expect(consume('positionsPerRequest', key)).rejects.toBeInstanceOf(RateLimitedError);
    const after = await spendBySql(key);
    expect(after.points).toBe(max + 2);
    expect(retryAfterSeconds(after.expire, Date.now())).toBeGreaterThan(0);
    expect(retryAfterSeconds(after.expire, Date.now())).toBeLessThanOrEqual(LIMITS.positionsPerRequest.duration);
  });

  it('start a new window when the stored one has ended', async () => {
    const key = subject();
    const first = await spendBySql(key);
    expect(first.points).toBe(1);
    const later = await spendBySql(key, first.expire + 1);
    expect(later).toEqual({ points: 1, expire: first.expire + 1 + LIMITS.positionsPerRequest.duration * 1000 });
  });

  it('read a per-IP limit by the client key the library uses (an IPv6 client by its /64)', async () => {
    const ip = `2001:db8:${Math.floor(Math.random() * 0xffff).toString(16)}:1::1`;
    for (let i = 0; i < LIMITS.consentMissPerIp.points; i++) await consume('consentMissPerIp', ip);
    await expect(assertNotLimited('consentMissPerIp', ip)).rejects.toBeInstanceOf(RateLimitedError);
    // Another address of the same /64 is the same client.
    expect(await reachedBySql('consentMissPerIp', ip.replace(/::1$/, '::2'))).toBe(true);
    expect(await reachedBySql('consentMissPerIp', '2001:db8:ffff:2::1')).toBe(false);
  });

  it('50 spends at once through SQL are all counted', async () => {
    const key = subject();
    const spent = await Promise.all(Array.from({ length: 50 }, () => spendBySql(key)));
    expect(spent.map((s) => s.points).sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
  });
});
