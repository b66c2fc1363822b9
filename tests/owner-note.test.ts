import { eq } from 'drizzle-orm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { getDb } from '@/server/db/client';
import { consents, locationRequests, orders, outboundMessages } from '@/server/db/schema';
import { ownerNoteProblem } from '@/lib/validation/requester-name';
import { prototypeOf } from '@/lib/validation/skeleton';
import { buyAccount, call, uniqueEmail } from './support/accounts';
import { expectNewRequestRefused, expectOrderRefused, newRequest, payCard, placeOrder } from './support/billing';
import { sha256 } from '@/server/services/tokens';
import { translate } from '@/server/i18n';
import { onlyEmojiInvisibles, readsAsContact, userTexts } from './support/user-text';

// Instead of anonymous voice messages, the buyer may add a short written note that the owner sees on the
// consent page under the requester's name. It is never put in the SMS.

const NOTE = 'Your phone is in my bag by mistake, please share so I can bring it back.';

describe('note rule', () => {
  it.each([
    ['', null],
    ['   ', null],
    [NOTE, null],
    ['Line one\nline two', null],
    ['é'.repeat(140), null],
    ['é'.repeat(141), 'Validation.noteLength'],
    ['call me at +1 415 555 2671', 'Validation.notePhone'],
    ['see https://evil.example now', 'Validation.noteLink'],
    ['write to anna@example.com', 'Validation.noteLink'],
    ['hi\u202Egnp.exe', 'Validation.noteInvalid'],
    ['hi\u0000', 'Validation.noteInvalid'],
  ])('%j → %s', (note, problem) => {
    expect(ownerNoteProblem(note, prototypeOf)).toBe(problem);
  });
});

// The note is read by the phone's owner: no invisible text, and no link, e-mail address or number in look-alikes.
describe('note: invisible and look-alike text', () => {
  it.each([
    ['\u3164\u3164 \u3164', 'Invalid'],
    ['\u2800\u2800', 'Invalid'],
    ['\u0301', 'Invalid'],
    ['hi\u00AD there', 'Invalid'],
    ['hi\u{E0068}\u{E0069}', 'Invalid'],
    ['line\u2028break', 'Invalid'],
    ['hi\uFFF9x\uFFFAy\uFFFB', 'Invalid'],
    ['see evil\uFF0Ecom', 'Link'],
    ['see evil\u3002com', 'Link'],
    ['see evil\u2024com', 'Link'],
    ['see evil.c\u043Em', 'Link'],
    ['write to anna\uFF20mail', 'Link'],
    ['call \u2465\u2464\u24EA \u2467\u2464\u2464', 'Phone'],
    ['call \u2076\u2075\u2070\u2075\u2075', 'Phone'],
  ])('%j is refused: %s', (note, problem) => {
    expect(ownerNoteProblem(note, prototypeOf)).toBe(`Validation.note${problem}`);
  });

  it.each([
    'Hola. Soy Ana, tu hermana.',
    'Your phone is in my bag. Please share so I can bring it back.',
    'Saya teman Anda. Tolong bagikan lokasi.',
    '你好。我是王小明，请分享位置。',
    'こんにちは。田中です。よろしくお願いします。',
    'مرحبا، أنا أختك. الساعة ١٠ الآن',
    'Привет! Это Зоя, твоя бабушка. Позвони, когда сможешь.',
    'Meet at 10.30, ok?',
    'Thanks ❤️ 👩\u200D👩\u200D👧',
    '👍',
  ])('%j is accepted', (note) => {
    expect(ownerNoteProblem(note, prototypeOf)).toBeNull();
  });

  // Defanged links are links: the note is refused as one, sentences with "dot", "punto" and brackets are not.
  it.each([
    'see evil[.]com',
    'go to evil(.)com now',
    'open evil{.}net',
    'visit evil [dot] com please',
    'visit evil dot com please',
    'entra en evil punto com',
    'buka evil titik com',
    'open http:/evil.example',
    'open http:/evil',
    'open hxxp://evil',
    'open hxxps[:]//evil',
    'write to anna[at]mail',
  ])('%j is refused as a link', (note) => {
    expect(ownerNoteProblem(note, prototypeOf)).toBe('Validation.noteLink');
  });

  it.each([
    'El punto es que te quiero ver.',
    'Lo dejé en el punto de encuentro.',
    'Kita ketemu di titik temu biasa.',
    'My name is Dot, your neighbour (at the end of the road).',
    'I found it at the station (by the café).',
    'Call me when you can: thanks!',
  ])('%j is accepted', (note) => {
    expect(ownerNoteProblem(note, prototypeOf)).toBeNull();
  });

  it('accepts only notes with nothing invisible outside emoji and no link, e-mail address or phone number (property)', () => {
    let accepted = 0;
    fc.assert(
      fc.property(userTexts(40), (note) => {
        if (ownerNoteProblem(note, prototypeOf) !== null) return;
        accepted += 1;
        const text = note.replace(/\r?\n/g, ' ');
        expect(onlyEmojiInvisibles(text)).toBe(true);
        expect(readsAsContact(text)).toBe(false);
      }),
      { numRuns: 3000 },
    );
    expect(accepted).toBeGreaterThan(100);
  });
});

describe('note through the API', () => {
  it.each([
    ['en', 'x'.repeat(141), 'The note can be at most 140 characters'],
    ['es', 'mira bit.ly/abc', 'La nota no puede contener un enlace, una dirección web ni un correo electrónico'],
    ['id', 'hubungi 0812 3456 7877', 'Catatan tidak boleh berisi nomor telepon'],
    ['en', 'hi\u3164\u3164', 'The note contains characters that cannot be shown'],
    ['es', 'mira evil\u3002com', 'La nota no puede contener un enlace, una dirección web ni un correo electrónico'],
    ['id', 'hubungi \u2465\u2464\u24EA \u2467\u2464\u2464', 'Catatan tidak boleh berisi nomor telepon'],
  ])('refuses a bad note on POST /portal/order with a %s message, and stores no order', async (lang, note, msg) => {
    await expectOrderRefused({ email: uniqueEmail(`note-${lang}`), note }, lang, 'note', msg);
  });

  it('carries the note from the order to the consent page, never into the SMS, and into the consent record', async () => {
    const email = uniqueEmail('noted');
    const { body } = await placeOrder({
      email,
      requesterName: 'Anna',
      note: `  ${NOTE.replace(' ', '\n')} `,
      phone: '+34612349933',
    });
    expect((await payCard(body.obj.code, '4242424242424242')).status).toBe(200);
    const db = await getDb();
    const [order] = await db.select().from(orders).where(eq(orders.code, body.obj.code));
    expect(order.note).toBe(NOTE);
    const [request] = await db.select().from(locationRequests).where(eq(locationRequests.orderId, order.id));
    expect(request.note).toBe(NOTE);
    const [sms] = await db.select().from(outboundMessages).where(eq(outboundMessages.locationRequestId, request.id));
    expect(sms.body).not.toContain('bag');
    expect(request.smsText).not.toContain('bag');
    const code = /\?c=([A-Za-z0-9_-]+)/.exec(sms.body)![1];

    const view = (await (await call('GET', `/spyContent/consent/${code}`)).json()).obj;
    expect(view).toMatchObject({ requesterName: 'Anna', note: NOTE });
    await call('PUT', `/spyContent/phoneLocation/${code}`, { body: { action: 'report' } });
    const [record] = await db.select().from(consents).where(eq(consents.requestId, request.id));
    expect(record.decision).toBe('reported');
    const shown = [
      translate('en', 'Consent.whoNamed', { product: 'Chamspy', name: 'Anna' }),
      translate('en', 'Consent.account', { email: view.requester }),
      `Their note: ${NOTE}`,
      `${translate('en', 'Consent.what')} ${translate('en', 'Consent.noHistory')}`,
    ].join('\n');
    expect(record.textHash).toBe(sha256(shown));
  });

  it('takes a note on a new request from the dashboard, and none when it is left empty', async () => {
    const buyer = await buyAccount(uniqueEmail('noted-new'));
    await expectNewRequestRefused(
      buyer.token,
      { phone: '+34612349944', requesterName: 'Tom', note: 'a'.repeat(141) },
      'en',
      'note',
    );
    const db = await getDb();
    for (const [note, stored] of [
      ['Call when you can', 'Call when you can'],
      ['  ', null],
    ] as const) {
      const ok = await newRequest(buyer.token, { phone: '+34612349944', requesterName: 'Tom', note });
      expect(ok.res.status).toBe(201);
      const { id, link } = ok.body.obj;
      const [request] = await db.select().from(locationRequests).where(eq(locationRequests.id, id));
      expect(request.note).toBe(stored);
      expect(request.smsText).not.toContain('Call when');
      const code = new URL(link).searchParams.get('c');
      expect((await (await call('GET', `/spyContent/consent/${code}`)).json()).obj.note).toBe(stored);
    }
  });
});
