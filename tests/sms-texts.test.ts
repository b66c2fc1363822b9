import { desc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { getDb } from '@/server/db/client';
import { locationRequests, outboundMessages } from '@/server/db/schema';
import { REMOVED_SMS_TEXTS } from '@/lib/contracts/locations';
import { MASKED_CODE, SMS_TEXTS, consentLink, consentSmsText, offeredSmsText } from '@/server/services/locate';
import { buyAccount, call, uniqueEmail } from './support/accounts';
import { expectNewRequestRefused, newRequest } from './support/billing';

// The consent SMS may claim only what we know. "'Budi', one of your contacts, wants to see where this phone is"
// claimed the requester is in the owner's contacts, which we cannot know: a stranger's SMS that says so is a lure.
// The text is withdrawn (lib/contracts/locations.ts REMOVED_SMS_TEXTS): refused when asked for, never sent again.

/** Words for "contact(s)" in the SMS languages. */
const CONTACTS = /contact|contacto|kontak/i;

describe('the consent SMS texts offered', () => {
  it.each(['en', 'es', 'id', 'en-PH'])('in %s, none claims the requester is one of the owner’s contacts', (locale) => {
    const link = consentLink('https://locate.example.com', locale, 'C0DE');
    for (const text of SMS_TEXTS) {
      for (const name of ['Budi', null])
        expect(consentSmsText(locale, 'Chamspy', link, text, name)).not.toMatch(CONTACTS);
    }
  });

  it('offers no withdrawn text, and renders a withdrawn or unknown id as the default text', () => {
    expect(SMS_TEXTS).not.toContain('contact');
    expect(REMOVED_SMS_TEXTS).toContain('contact');
    expect(offeredSmsText('contact')).toBe('standard');
    expect(offeredSmsText('nonsense')).toBe('standard');
    expect(offeredSmsText(null)).toBe('standard');
    const link = consentLink('https://locate.example.com', 'es', 'C0DE');
    const removed = 'contact' as unknown as (typeof SMS_TEXTS)[number];
    expect(consentSmsText('es', 'Chamspy', link, removed, 'Budi')).toBe(
      consentSmsText('es', 'Chamspy', link, 'standard', 'Budi'),
    );
    expect(consentSmsText('id', 'Chamspy', link, removed, null)).toBe(
      consentSmsText('id', 'Chamspy', link, 'standard', null),
    );
  });

  it('GET /multilingualWord/one/3/phone_text lists no text about contacts, in any language', async () => {
    const { obj } = await (await call('GET', '/multilingualWord/one/3/phone_text')).json();
    expect(obj.length).toBeGreaterThan(0);
    for (const text of obj as { id: string; text: string }[]) {
      expect(text.id).not.toBe('contact');
      expect(text.text).not.toMatch(CONTACTS);
    }
  });
});

describe('a new request naming a withdrawn text', () => {
  it.each([
    [
      'en',
      "This SMS text is no longer offered: it said you are one of the owner's contacts, which we cannot know. Choose another text.",
    ],
    [
      'es',
      'Este texto de SMS ya no se ofrece: decía que eres uno de los contactos del titular, algo que no podemos saber. Elige otro texto.',
    ],
    [
      'id',
      'Teks SMS ini tidak lagi tersedia: teks itu menyebut Anda salah satu kontak pemilik, hal yang tidak dapat kami ketahui. Pilih teks lain.',
    ],
  ])('is refused with a 422 in %s, and creates no request', async (lang, msg) => {
    const buyer = await buyAccount(uniqueEmail(`sms-removed-${lang}`));
    const phone = `+3461234${lang === 'en' ? '0101' : lang === 'es' ? '0102' : '0103'}`;
    await expectNewRequestRefused(buyer.token, { phone, requesterName: 'Budi', text: 'contact' }, lang, 'text', msg);
  });

  it('an unknown text id is refused too, with the generic message', async () => {
    const buyer = await buyAccount(uniqueEmail('sms-unknown'));
    const refused = await newRequest(buyer.token, { phone: '+34612340104', requesterName: 'Budi', text: 'friendly' });
    expect(refused.res.status).toBe(422);
    expect(refused.body).toMatchObject({ field: 'text' });
    expect(refused.body.msg).not.toMatch(/no longer offered/);
  });
});

describe('a stored request written with a withdrawn text', () => {
  it('is sent again in the default text, and keeps that text as the one sent', async () => {
    const buyer = await buyAccount(uniqueEmail('sms-stored'));
    const made = await newRequest(buyer.token, { phone: '+34612340105', requesterName: 'Budi' });
    expect(made.res.status).toBe(201);
    const id = made.body.obj.id as string;
    const db = await getDb();
    // As a request made before the text was withdrawn stored it (its code masked).
    const old = `«Budi», uno de tus contactos, quiere ver dónde está este teléfono (Chamspy). Abre para decidir: http://localhost:3000/es/location/?c=${MASKED_CODE}`;
    await db.update(locationRequests).set({ smsText: old }).where(eq(locationRequests.id, id));

    const renewed = await call('POST', `/spyContent/phoneLocation/${id}/link`, {
      body: { send: true },
      headers: { cookie: `token=${buyer.token}` },
    });
    expect(renewed.status).toBe(200);
    const { link } = (await renewed.json()).obj;
    const [sms] = await db
      .select()
      .from(outboundMessages)
      .where(eq(outboundMessages.locationRequestId, id))
      .orderBy(desc(outboundMessages.createdAt))
      .limit(1);
    expect(sms.body).toBe(consentSmsText('es', 'Chamspy', link, 'standard', 'Budi'));
    expect(sms.body).not.toMatch(CONTACTS);
    const [request] = await db.select().from(locationRequests).where(eq(locationRequests.id, id));
    expect(request.smsText).toMatch(/^«Budi» pide la ubicación de este teléfono a través de Chamspy/);
    expect(request.smsText).toContain(MASKED_CODE);
  });
});
