import type { E164 } from '@/lib/contracts/phone';
import { eq } from 'drizzle-orm';
import twilio from 'twilio';
import { describe, expect, it } from 'vitest';
import { getDb } from '@/server/db/client';
import { optOuts, outboundMessages } from '@/server/db/schema';
import type { SmsProvider } from '@/server/providers/sms';
import { deliverOutboxMessage } from '@/server/services/messaging';
import { API, app, form } from './support/api';

const TOKEN = 'test-auth-token-0123456789';
/** The public URL Twilio signs: APP_ORIGIN (default http://localhost:3000) and the path. */
const SIGNED_URL = 'http://localhost:3000/api_f/v1/webhooks/twilio';

function callback(
  params: Record<string, string>,
  signature = twilio.getExpectedTwilioSignature(TOKEN, SIGNED_URL, params),
) {
  return app.request(`${API}/webhooks/twilio`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': signature },
    body: form(params),
  });
}

/** A consent SMS handed to a stand-in for Twilio that records the call and answers with a message SID. */
async function sentSms(to: string) {
  const db = await getDb();
  const [row] = await db.insert(outboundMessages).values({ channel: 'sms', recipient: to, body: 'hello' }).returning();
  const calls: Parameters<SmsProvider['send']>[0][] = [];
  const sid = `SM${row.id.replace(/-/g, '')}`;
  const sms: SmsProvider = { name: 'twilio', send: async (m) => (calls.push(m), sid) };
  expect(await deliverOutboxMessage(db, row.id, { sms })).toBe('sent');
  return { id: row.id, sid, calls };
}

describe('Twilio status callbacks', () => {
  it('hands the SMS to the provider with our status callback and stores the message SID', async () => {
    const { id, sid, calls } = await sentSms('+14155550100');
    expect(calls).toEqual([{ to: '+14155550100', body: 'hello', statusCallback: SIGNED_URL }]);
    const [row] = await (await getDb()).select().from(outboundMessages).where(eq(outboundMessages.id, id));
    expect(row).toMatchObject({ status: 'sent', provider: 'twilio', providerMessageId: sid });
  });

  it('refuses a bad signature with 403 and changes nothing', async () => {
    const { id, sid } = await sentSms('+14155550101');
    const res = await callback({ MessageSid: sid, MessageStatus: 'delivered' }, 'forged-signature');
    expect(res.status).toBe(403);
    const [row] = await (await getDb()).select().from(outboundMessages).where(eq(outboundMessages.id, id));
    expect(row.status).toBe('sent');
  });

  it('moves statuses forward only: a late "sent" after "delivered" is ignored, duplicates change nothing', async () => {
    const { id, sid } = await sentSms('+14155550102');
    expect((await (await callback({ MessageSid: sid, MessageStatus: 'delivered' })).json()).obj).toEqual({
      status: 'delivered',
    });
    expect((await (await callback({ MessageSid: sid, MessageStatus: 'sent' })).json()).obj).toEqual({
      status: 'delivered',
    });
    expect((await (await callback({ MessageSid: sid, MessageStatus: 'delivered' })).json()).obj).toEqual({
      status: 'delivered',
    });
    const [row] = await (await getDb()).select().from(outboundMessages).where(eq(outboundMessages.id, id));
    expect(row.status).toBe('delivered');
  });

  it('a STOP reply opts the number out, and no order is taken for it afterwards', async () => {
    const res = await callback({ From: '+34612340099', Body: ' stop ' });
    expect((await res.json()).obj).toEqual({ status: 'opted_out' });
    const db = await getDb();
    expect(
      await db
        .select()
        .from(optOuts)
        .where(eq(optOuts.phoneE164, '+34612340099' as E164)),
    ).toEqual([expect.objectContaining({ reason: 'stop' })]);
    const order = await app.request(`${API}/portal/order`, {
      method: 'POST',
      headers: { website_type: '7', 'content-type': 'application/x-www-form-urlencoded' },
      body: form({
        email: 'x@example.com',
        phone: '+34612340099',
        requesterName: 'Anna (your sister)',
        terms: true,
        startNow: true,
      }),
    });
    expect(order.status).toBe(403);
  });
});
