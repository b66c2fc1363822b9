import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { getDb } from '@/server/db/client';
import { consents, locationRequests, optOuts, outboundMessages } from '@/server/db/schema';
import { translate } from '@/server/i18n';
import { call, uniqueEmail } from './support/accounts';
import { subscribe } from './support/billing';

// The owner's abuse report: offered after a Decline too, with an optional reason held to the note's rules
// (lib/validation/requester-name.ts ownerNoteProblem) and stored on the `reported` consent record.

/** A paid trial's first request: its id, number and consent code (read from the stored SMS). */
async function requestOf(tag: string) {
  const { order } = await subscribe(uniqueEmail(tag));
  const db = await getDb();
  const [request] = await db.select().from(locationRequests).where(eq(locationRequests.orderId, order.id));
  const [sms] = await db.select().from(outboundMessages).where(eq(outboundMessages.locationRequestId, request.id));
  return { requestId: request.id, phone: request.targetE164, code: /\?c=([A-Za-z0-9_-]+)/.exec(sms.body)![1] };
}

/** The owner's answer through the consent link, form-encoded as the page sends it, in `lang`. */
function answer(code: string, body: Record<string, string>, lang = 'en') {
  return call('PUT', `/spyContent/phoneLocation/${code}`, { body, headers: { 'accept-language': lang } });
}

async function reportsOf(requestId: string) {
  const db = await getDb();
  return db
    .select({ reason: consents.reason })
    .from(consents)
    .where(and(eq(consents.requestId, requestId), eq(consents.decision, 'reported')));
}

describe('Report abuse with a reason', () => {
  it('after a Decline, stores the reason (whitespace collapsed), blocks the number and ends the request reported', async () => {
    const { requestId, phone, code } = await requestOf('report-declined');
    expect((await answer(code, { action: 'decline' })).status).toBe(200);
    const res = await answer(code, { action: 'report', reason: '  I do not know\nwho   this is 👀 ' });
    expect(res.status).toBe(200);
    expect((await res.json()).obj).toEqual({ status: 'reported' });
    expect(await reportsOf(requestId)).toEqual([{ reason: 'I do not know who this is 👀' }]);
    const db = await getDb();
    const [blocked] = await db.select().from(optOuts).where(eq(optOuts.phoneE164, phone));
    expect(blocked).toMatchObject({ reason: 'report', requestId });
    const view = await (await call('GET', `/spyContent/consent/${code}`)).json();
    expect(view.obj).toMatchObject({ status: 'reported', reported: true });
  });

  it('without a reason, or a blank one, stores none', async () => {
    const first = await requestOf('report-none');
    expect((await answer(first.code, { action: 'report' })).status).toBe(200);
    expect(await reportsOf(first.requestId)).toEqual([{ reason: null }]);
    const second = await requestOf('report-blank');
    expect((await answer(second.code, { action: 'report', reason: '   ' })).status).toBe(200);
    expect(await reportsOf(second.requestId)).toEqual([{ reason: null }]);
  });

  it('refuses a reason over 140 characters with a localized 422 and records nothing', async () => {
    const { requestId, code } = await requestOf('report-long');
    const exactly = 'a'.repeat(140);
    const res = await answer(code, { action: 'report', reason: `${exactly}b` }, 'es');
    expect(res.status).toBe(422);
    const body = await res.json();
    expect(body.msg).toBe(translate('es', 'Validation.reportReasonLength'));
    expect(body.msg).toBe('El motivo puede tener como máximo 140 caracteres');
    expect(await reportsOf(requestId)).toEqual([]);
    // 140 code points are taken (an emoji counts as one).
    expect((await answer(code, { action: 'report', reason: `${'😀'.repeat(139)}a` })).status).toBe(200);
    expect(await reportsOf(requestId)).toHaveLength(1);
  });

  it.each([
    ['a web address', 'see chamspy-help.com now', 'Validation.reportReasonLink'],
    ['a look-alike web address', 'see exаmple．com', 'Validation.reportReasonLink'],
    ['an e-mail address', 'write to me at anna@example.org', 'Validation.reportReasonLink'],
    ['a phone number', 'call me on 612 345 678', 'Validation.reportReasonPhone'],
    ['an invisible character', 'he\u200Bllo', 'Validation.reportReasonInvalid'],
  ])('refuses %s in the reason with a localized 422 (en, es, id)', async (_, reason, key) => {
    const { requestId, code } = await requestOf('report-bad');
    for (const lang of ['en', 'es', 'id'] as const) {
      const res = await answer(code, { action: 'report', reason }, lang);
      expect(res.status).toBe(422);
      const body = await res.json();
      expect(body.msg).toBe(translate(lang, key as 'Validation.reportReasonLink'));
      expect(body.msg).not.toContain('Validation.');
    }
    expect(await reportsOf(requestId)).toEqual([]);
  });

  it('20 reports at once are all answered, each with its reason recorded, and block the number once', async () => {
    const { requestId, phone, code } = await requestOf('report-burst');
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => answer(code, { action: 'report', reason: `report ${i}` })),
    );
    expect(answers.map((r) => r.status)).toEqual(Array<number>(20).fill(200));
    const reasons = (await reportsOf(requestId)).map((r) => r.reason).sort();
    expect(reasons).toEqual(Array.from({ length: 20 }, (_, i) => `report ${i}`).sort());
    const db = await getDb();
    expect(await db.select().from(optOuts).where(eq(optOuts.phoneE164, phone))).toHaveLength(1);
    const [request] = await db.select().from(locationRequests).where(eq(locationRequests.id, requestId));
    expect(request.status).toBe('reported');
  });
});
