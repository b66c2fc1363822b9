import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { getDb } from '@/server/db/client';
import { USERNAME_QUEUE, enqueueUsernameCheck, getBoss, startUsernameWorkers } from '@/server/jobs/boss';

// The username lookups' workers (pg-boss) against the test database: a lookup queued while another runs starts at
// once, rather than waiting at 0 sites checked for the first one to end.

describe('username lookup workers (server/jobs/boss.ts)', () => {
  it('start a second lookup while a first one is still asking its sites', async () => {
    const boss = await getBoss();
    const [first, second] = [randomUUID(), randomUUID()];
    const started: string[] = [];
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await startUsernameWorkers(boss, await getDb(), async (_db, idHash) => {
      started.push(idHash);
      // The first lookup runs on (its sites are slow) until the end of the test.
      if (idHash === first) await held;
    });
    try {
      await enqueueUsernameCheck(first);
      await expect.poll(() => started, { timeout: 10_000 }).toContain(first);
      await enqueueUsernameCheck(second);
      await expect.poll(() => started, { timeout: 5_000 }).toContain(second);
    } finally {
      release();
      await boss.offWork(USERNAME_QUEUE);
    }
  });
});
