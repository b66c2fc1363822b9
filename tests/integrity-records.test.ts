import type { E164 } from '@/lib/contracts/phone';
import { randomUUID } from 'node:crypto';
import { eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { getDb } from '@/server/db/client';
import { consents, locationRequests, outboundMessages } from '@/server/db/schema';
import type { SmsProvider } from '@/server/providers/sms';
import { runLocateMaintenance } from '@/server/services/locate';
import { pollSmsStatuses } from '@/server/services/messaging';
import { call, uniqueEmail } from './support/accounts';
import { subscribe } from './support/billing';

// An undelivered SMS is found out and shown; consent records are kept for a set period, then purged.

const MINUTE = 60_000;

describe('SMS without a final status', () => {
  it('asks the provider about messages silent for 10 minutes, and the dashboard shows "SMS not delivered"', async () => {
    const { order, cookie } = await subscribe(uniqueEmail('silent'));
    const db = await getDb();
    const [request] = await db.select().from(locationRequests).where(eq(locationRequests.orderId, order.id));
    const now = Date.now();
    const sid = `SM${randomUUID().replace(/-/g, '')}`;
    // The consent SMS was handed to Twilio 11 minutes ago; its callback never arrived. Another one 2 minutes ago.
    await db
      .update(outboundMessages)
      .set({ status: 'sent', provider: 'twilio', providerMessageId: sid, sentAt: new Date(now - 11 * MINUTE) })
      .where(eq(outboundMessages.locationRequestId, request.id));
    const [recent] = await db
      .insert(outboundMessages)
      .values({
        channel: 'sms',
        recipient: '+34612000111',
        body: 'x',
        status: 'sent',
        provider: 'twilio',
        providerMessageId: `${sid}b`,
        sentAt: new Date(now - 2 * MINUTE),
      })
      .returning();
    const asked: string[] = [];
    const provider: SmsProvider = {
      name: 'twilio',
      send: async () => null,
      status: async (id) => (asked.push(id), 'undelivered'),
    };
    expect(await pollSmsStatuses(db, provider, new Date(now))).toBeGreaterThanOrEqual(1);
    expect(asked).toContain(sid);
    expect(asked).not.toContain(recent.providerMessageId);
    // Asked again only 10 minutes later.
    asked.length = 0;
    await pollSmsStatuses(db, provider, new Date(now + MINUTE));
    expect(asked).not.toContain(sid);

    const list = await (await call('GET', '/spyContent', { headers: { cookie } })).json();
    expect(list.page.list.find((r: { id: string }) => r.id === request.id)).toMatchObject({ smsStatus: 'failed' });
    const view = await (await call('GET', `/portal/user/checkRegister/${order.code}`)).json();
    expect(view.obj.smsStatus).toBe('failed');
  });
});

describe('consent record retention', () => {
  it('keeps records for the set period after the positions are deleted, then purges them', async () => {
    const db = await getDb();
    const day = 24 * 3600_000;
    const base = { targetE164: '+34612000222' as E164, textHash: 'a'.repeat(64), decision: 'shared' as const };
    const rows = await db
      .insert(consents)
      .values([
        { ...base, requestId: randomUUID(), createdAt: new Date(Date.now() - (30 + 365 + 2) * day) },
        { ...base, requestId: randomUUID(), createdAt: new Date(Date.now() - (30 + 300) * day) },
      ])
      .returning({ id: consents.id });
    const result = await runLocateMaintenance(db, 30, 365);
    expect(result.purgedConsents).toBeGreaterThanOrEqual(1);
    const left = await db
      .select()
      .from(consents)
      .where(
        inArray(
          consents.id,
          rows.map((r) => r.id),
        ),
      );
    expect(left.map((r) => r.id)).toEqual([rows[1].id]);
    // Outside the purge, a delete is still refused.
    await expect(db.delete(consents).where(eq(consents.id, rows[1].id))).rejects.toThrow();
  });
});
