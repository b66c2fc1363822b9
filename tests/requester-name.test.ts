import { eq } from 'drizzle-orm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { getDb } from '@/server/db/client';
import { consents, locationRequests, orders, outboundMessages } from '@/server/db/schema';
import { requesterNameProblem } from '@/lib/validation/requester-name';
import { prototypeOf } from '@/lib/validation/skeleton';
import { buyAccount, call, uniqueEmail } from './support/accounts';
import { expectNewRequestRefused, expectOrderRefused, newRequest, payCard, placeOrder } from './support/billing';
import { sha256 } from '@/server/services/tokens';
import { translate } from '@/server/i18n';
import { onlyEmojiInvisibles, readsAsContact, userTexts } from './support/user-text';

// The buyer names themselves; the owner sees that name in the SMS and on the consent page.

describe('requester name rule', () => {
  it.each([
    ['Anna (your sister)', null],
    ['  Jo   Kim ', null],
    ['Ана', null],
    ['李', 'Validation.requesterNameLength'],
    ['', 'Validation.requesterNameRequired'],
    ['   ', 'Validation.requesterNameRequired'],
    ['x'.repeat(41), 'Validation.requesterNameLength'],
    ['Anna https://evil.example', 'Validation.requesterNameLink'],
    ['Anna www.evil', 'Validation.requesterNameLink'],
    ['see bit.ly', 'Validation.requesterNameLink'],
    ['anna@example.com', 'Validation.requesterNameLink'],
    ['Call +1 415 555 2671', 'Validation.requesterNamePhone'],
    ['Anna 0812-3456', 'Validation.requesterNamePhone'],
    ['Anna\u0007', 'Validation.requesterNameInvalid'],
    ['Anna\u202Egnp.exe', 'Validation.requesterNameInvalid'],
    ['Anna\nBob', 'Validation.requesterNameInvalid'],
  ])('%j → %s', (name, problem) => {
    expect(requesterNameProblem(name, prototypeOf)).toBe(problem);
  });
});

// What reaches the owner must be readable: no name made of blanks, no format characters, and no link, e-mail address
// or phone number spelled with look-alikes (compared on NFKC and the UTS #39 skeleton).
describe('requester name: invisible and look-alike text', () => {
  it.each([
    // Blank or invisible "names".
    ['\u3164\u3164', 'Invalid'],
    ['\u2800\u2800\u2800', 'Invalid'],
    ['\u115F\u1160', 'Invalid'],
    ['\uFFA0\uFFA0', 'Invalid'],
    ['\u0301\u0301\u0301', 'Invalid'],
    ['\u17B4\u17B5', 'Invalid'],
    ['\u{1D173}\u{1D17A}', 'Invalid'],
    ['Jo \u0301\u0301', 'Invalid'],
    ['Ana\u0301\u0302\u0303\u0304\u0305', 'Invalid'],
    ['evil\u0660com', 'Link'],
    // Format characters and separators.
    ['Anna\u061C', 'Invalid'],
    ['An\u00ADna', 'Invalid'],
    ['Anna\u034F', 'Invalid'],
    ['Anna\u180E', 'Invalid'],
    ['Anna\u{E0001}\u{E0065}\u{E0076}\u{E0069}\u{E006C}\u{E007F}', 'Invalid'],
    ['Anna\uFFF9evil\uFFFAx\uFFFB', 'Invalid'],
    ['Anna\u2028Bob', 'Invalid'],
    ['Anna\u2029Bob', 'Invalid'],
    ['Anna\u200D', 'Invalid'],
    ['Anna\uFE0F', 'Invalid'],
    ['An\u{E0100}na', 'Invalid'],
    ['Anna\u{F8FF}', 'Invalid'],
    ['Anna\uFEFF', 'Invalid'],
    // Fewer than two visible letters.
    ['\u2465\u2464\u24EA', 'Letters'],
    ['!!', 'Letters'],
    ['😀😀', 'Letters'],
    ['A 1', 'Letters'],
    // Web addresses, e-mail addresses and URLs spelled with look-alikes.
    ['evil\uFF0Ecom', 'Link'],
    ['evil\u3002com', 'Link'],
    ['evil\uFF61com', 'Link'],
    ['evil\u2024com', 'Link'],
    ['evil.c\u043Em', 'Link'],
    ['\u0435vil.\u0441om', 'Link'],
    ['EVIL.COM', 'Link'],
    ['evil . com', 'Link'],
    ['evil\u00E9.c\u00F3m', 'Link'],
    ['\u051D\u051D\u051D.x', 'Link'],
    ['anna\uFF20mail', 'Link'],
    ['anna\uFE6Bmail', 'Link'],
    ['\u04BBttps://x', 'Link'],
    ['\uFF48\uFF54\uFF54\uFF50\uFF1A//x', 'Link'],
    // Phone numbers in circled, superscript, fullwidth and other digits, and in look-alike letters.
    ['Anna \u2465\u2464\u24EA\u2467\u2464', 'Phone'],
    ['Anna \u2076\u2075\u2070 \u2075\u2075', 'Phone'],
    ['Anna \uFF16\uFF15\uFF10\uFF15\uFF15', 'Phone'],
    ['Anna \u0666\u0665\u0660\u0665\u0665', 'Phone'],
    ['Anna \u{1D7DE}\u{1D7DD}\u{1D7D8}\u{1D7DD}\u{1D7DD}', 'Phone'],
    ['Anna \u0431\u0417-4\u0431\u0417', 'Phone'],
  ])('%j is refused: %s', (name, problem) => {
    expect(requesterNameProblem(name, prototypeOf)).toBe(`Validation.requesterName${problem}`);
  });

  it.each([
    'Anna (your sister)',
    'Mamá',
    'José María',
    'Ахмед',
    '王小明',
    'Ирина Зубова',
    'Бабушка Зоя',
    'Nguyễn Văn Anh',
    'สมชาย ใจดี',
    'محمد علي',
    'Κώστας',
    'דוד כהן',
    'कृष्ण',
    '김민수',
    '田中さん',
    'Siti Nurhaliza',
    'Ni Luh Putu Ayu',
    "María José O'Neill",
    'Jean-Luc',
    'Søren Łukasz',
    'J. Smith',
    'Dr. Ahmed',
    'Ma. Teresa',
    'Sr. José',
    'M. Ivanova',
    'Anna ❤️',
    'Mamá 👩\u200D👧',
    'Tom 👍🏽',
    'Dad 🏴\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}',
    'Ana 🇪🇸',
    'Ana 1\uFE0F\u20E3',
    'Mai 2024',
    'Ali \u0665\u0660\u0665',
  ])('%j is accepted', (name) => {
    expect(requesterNameProblem(name, prototypeOf)).toBeNull();
  });
});

// Defanged links (threat reports' and scam texts' way of writing a link that is not one) are links all the same.
describe('requester name: defanged links', () => {
  it.each([
    'evil[.]com',
    'evil(.)com',
    'evil{.}com',
    'evil [.] com',
    'evil[dot]com',
    'evil(dot)net',
    'EVIL [DOT] COM',
    'evil dot com',
    'evil punto com',
    'evil titik com',
    'www dot evil',
    'http:/evil.example',
    'http:/evil',
    'https:evil',
    'http:\\\\evil',
    'https//evil',
    'hxxp://evil',
    'hxxps:/evil',
    'hxxp[:]//evil',
    'anna[at]mail',
    'anna (at) mail',
    'evil\uFF3B.\uFF3Dcom',
    'evil[.]c\u043Em',
  ])('%j is refused as a link', (name) => {
    expect(requesterNameProblem(name, prototypeOf)).toBe('Validation.requesterNameLink');
  });

  it.each(['Anna (your sister)', 'Dot Cotton', 'Ana [Mamá]', 'Tito (Dot)', 'Hattie', 'Thatcher', 'Anna at home'])(
    '%j is accepted',
    (name) => {
      expect(requesterNameProblem(name, prototypeOf)).toBeNull();
    },
  );
});

describe('requester name: what is accepted renders visibly (property)', () => {
  it('has two visible letters, nothing invisible outside emoji, no link, e-mail address or phone number', () => {
    let accepted = 0;
    fc.assert(
      fc.property(userTexts(14), (name) => {
        if (requesterNameProblem(name, prototypeOf) !== null) return;
        accepted += 1;
        const letters = [...name].filter((c) => /\p{L}/u.test(c) && !/[\u115F\u1160\u3164\uFFA0]/u.test(c));
        expect(letters.length).toBeGreaterThanOrEqual(2);
        expect(onlyEmojiInvisibles(name)).toBe(true);
        expect(readsAsContact(name)).toBe(false);
      }),
      { numRuns: 4000 },
    );
    // The property is not vacuous: a fair share of the generated names is accepted.
    expect(accepted).toBeGreaterThan(200);
  });
});

describe('requester name through the API', () => {
  it.each([
    ['en', '', 'Please enter your name, so the owner knows who is asking'],
    [
      'es',
      'Anna http://x.example',
      'Tu nombre no puede contener un enlace, una dirección web ni un correo electrónico',
    ],
    ['id', 'Anna +62 812 3456 7877', 'Nama Anda tidak boleh berisi nomor telepon'],
  ])('refuses a bad name on POST /portal/order with a %s message, and stores no order', async (lang, name, msg) => {
    await expectOrderRefused({ email: uniqueEmail(`name-${lang}`), requesterName: name }, lang, 'requesterName', msg);
  });

  it.each([
    ['en', '\u3164\u3164', 'Your name contains characters that cannot be shown'],
    ['id', '\u2800\u2800\u2800', 'Nama Anda berisi karakter yang tidak dapat ditampilkan'],
    ['es', 'Anna\u061C\u00AD', 'Tu nombre contiene caracteres que no se pueden mostrar'],
    [
      'es',
      '\u2465\u2464\u24EA',
      'Tu nombre debe contener al menos dos letras, para que el titular pueda leer quién lo pide',
    ],
    ['en', 'evil\u3002com', 'Your name cannot contain a link, a web address or an e-mail address'],
    ['id', 'Anna evil.c\u043Em', 'Nama Anda tidak boleh berisi tautan, alamat web, atau alamat email'],
    ['en', 'Anna \u2465\u2464\u24EA\u2467\u2464', 'Your name cannot contain a phone number'],
    ['en', 'Anna evil[.]com', 'Your name cannot contain a link, a web address or an e-mail address'],
    ['es', 'hxxp:/evil', 'Tu nombre no puede contener un enlace, una dirección web ni un correo electrónico'],
  ])(
    'refuses an invisible or look-alike name on POST /portal/order (%s, %j), and stores no order',
    async (lang, name, msg) => {
      await expectOrderRefused(
        { email: uniqueEmail(`name-lookalike-${lang}`), requesterName: name },
        lang,
        'requesterName',
        msg,
      );
    },
  );

  it('refuses a blank name on a new request from the dashboard too, and creates no request', async () => {
    const buyer = await buyAccount(uniqueEmail('named-blank'));
    await expectNewRequestRefused(
      buyer.token,
      { phone: '+34612349955', requesterName: '\uFFA0\uFFA0\uFFA0' },
      'es',
      'requesterName',
    );
  });

  it('carries the name from the order to the SMS, the request and the consent page', async () => {
    const email = uniqueEmail('named');
    const { body } = await placeOrder({ email, requesterName: '  Anna   (your sister) ', phone: '+34612349911' });
    expect((await payCard(body.obj.code, '4242424242424242')).status).toBe(200);
    const db = await getDb();
    const [order] = await db.select().from(orders).where(eq(orders.code, body.obj.code));
    expect(order.requesterName).toBe('Anna (your sister)');
    const [request] = await db.select().from(locationRequests).where(eq(locationRequests.orderId, order.id));
    expect(request.requesterName).toBe('Anna (your sister)');
    const [sms] = await db.select().from(outboundMessages).where(eq(outboundMessages.locationRequestId, request.id));
    expect(sms.body).toMatch(/^«Anna \(your sister\)» pide la ubicación de este teléfono a través de Chamspy/);
    const code = /\?c=([A-Za-z0-9_-]+)/.exec(sms.body)![1];

    const view = await call('GET', `/spyContent/consent/${code}`, { headers: { 'accept-language': 'es' } });
    expect((await view.json()).obj).toMatchObject({
      requesterName: 'Anna (your sister)',
      requester: expect.stringMatching(/^n•••@/),
      status: 'opened',
      reported: false,
      ended: null,
    });
    // The consent record's hash is of the text with the name, as the page showed it.
    await call('PUT', `/spyContent/phoneLocation/${code}`, {
      body: { action: 'decline' },
      headers: { 'accept-language': 'es' },
    });
    const [record] = await db.select().from(consents).where(eq(consents.requestId, request.id));
    const masked = (await (await call('GET', `/spyContent/consent/${code}`)).json()).obj.requester;
    const shown = [
      'Anna (your sister) pide la ubicación de este teléfono a través de Chamspy.',
      `Solicitado desde la cuenta ${masked}.`,
      `${translate('es', 'Consent.what')} ${translate('es', 'Consent.noHistory')}`,
    ].join('\n');
    expect(record.textHash).toBe(sha256(shown));
  });

  it('needs the name on a new request from the dashboard too', async () => {
    const buyer = await buyAccount(uniqueEmail('named-new'));
    await expectNewRequestRefused(buyer.token, { phone: '+34612349922' }, 'en', 'requesterName');
    const ok = await newRequest(buyer.token, {
      phone: '+34612349922',
      requesterName: 'Tom',
      text: 'standard',
      locale: 'en',
    });
    expect(ok.res.status).toBe(201);
    const db = await getDb();
    const [request] = await db.select().from(locationRequests).where(eq(locationRequests.id, ok.body.obj.id));
    expect(request.smsText).toMatch(/^"Tom" asks for this phone's location via Chamspy\. Share or decline here: /);
  });
});
