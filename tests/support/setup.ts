import { afterAll } from 'vitest';

/**
 * After each test file: stop pg-boss if a test started it (enqueueing outbox rows does) and close the pool, so
 * nothing is still talking to PostgreSQL when the throwaway server stops.
 */
afterAll(async () => {
  const store = globalThis as Record<symbol, Promise<{ stop(o: object): Promise<void> }> | undefined>;
  const boss = store[Symbol.for('app.boss')];
  if (boss) await (await boss).stop({ graceful: false, wait: true, close: true }).catch(() => {});
  const db = store[Symbol.for('app.db')] as Promise<{ pool: { end(): Promise<void> } }> | undefined;
  if (db) await (await db).pool.end().catch(() => {});
});
