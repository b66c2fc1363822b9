import type { E164 } from '@/lib/contracts/phone';
import { eq } from 'drizzle-orm';
import { createTranslator } from 'next-intl';
import { describe, expect, it } from 'vitest';
import { getDb } from '@/server/db/client';
import { consents, locationRequests, orders, outboundMessages, users } from '@/server/db/schema';
import { smsSegments } from '@/server/services/locate';
import { claimsAuthority } from '@/lib/validation/authority-names';
import { requesterNameProblem } from '@/lib/validation/requester-name';
import { prototypeOf } from '@/lib/validation/skeleton';
import { requesterFactsText } from '@/lib/requester-facts';
import type { RequesterFacts } from '@/lib/contracts/consent';
import en from '@/messages/en.json';
import es from '@/messages/es.json';
import id from '@/messages/id.json';
import { buyAccount, call, uniqueEmail } from './support/accounts';
import { expectNewRequestRefused, expectOrderRefused, newRequest, payCard, placeOrder } from './support/billing';

// The owner decides on a stranger's word: the name must not borrow an authority's or our own trust, the page says
// what we know of the account beside it, and the SMS is written in the owner's language with the name quoted.

const AUTHORITY = 'Validation.requesterNameAuthority';

describe('requester names that claim an authority or the service', () => {
  it.each([
    // The case that was bought: the Spanish national police, and its spellings.
    'Policía Nacional',
    'POLICIA',
    'policia nacional',
    'P0licia',
    'Pol1cía',
    'PoliciaNacional',
    'POLICIANACIONAL',
    'P.O.L.I.C.I.A',
    'P o l i c e',
    'Pollice',
    // Look-alike letters: Cyrillic "Р", "о", "і", "с", "е", Greek "Ρ", fullwidth and mathematical bold letters.
    '\u0420\u043El\u0456\u0441\u0435',
    '\u03A1olice',
    '\uFF30\uFF2F\uFF2C\uFF29\uFF23\uFF25',
    '\u{1D40F}\u{1D428}\u{1D425}\u{1D422}\u{1D41C}\u{1D41E}',
    'Poli\u0107e',
    // English.
    'Police',
    'Metropolitan Police',
    'Officer Krupke',
    'FBI',
    'Court of Appeal',
    'Judge Smith',
    'HSBC Bank',
    'Tax Office',
    'IRS',
    'Ministry of Health',
    'Government of Spain',
    'British Army',
    'US Embassy',
    'Customer Service',
    'Tech Support',
    'Security Team',
    'Admin',
    'B4nk',
    '$upport',
    // Spanish.
    'Banco Santander',
    'Mi banco',
    'Guardia Civil',
    'Hacienda',
    'Agencia Tributaria',
    'Juzgado de Guardia',
    'Corte Suprema',
    'Fiscalía',
    'Ministerio del Interior',
    'Gobierno de México',
    'Ejército',
    'Embajada de España',
    'Atención al Cliente',
    'Soporte Técnico',
    'Seguridad',
    // Indonesian.
    'Polisi',
    'Kepolisian Daerah',
    'Polres Jakarta',
    'Pengadilan Negeri',
    'Kejaksaan',
    'Bank BCA',
    'Kantor Pajak',
    'Kementerian Kesehatan',
    'Pemerintah',
    'TNI AD',
    'Kedutaan Besar',
    'Layanan Pelanggan',
    'Tim Keamanan',
    // Filipino (Tagalog) for the en-PH visitors.
    'Pulis',
    'PNP',
    'Korte Suprema',
    'Bangko Sentral',
    'Gobyerno',
    'Hukbo',
    'Embahada',
    // The product's own name, alone, with a word, split or joined.
    'Chamspy',
    'Chamspy Support',
    'CHAMSPY TEAM',
    'Cham Spy',
    'ChamspyHelp',
    'Ch\u0430mspy',
  ])('%j is refused', (name) => {
    expect(requesterNameProblem(name, prototypeOf)).toBe(AUTHORITY);
  });

  it.each([
    'Mariposa',
    'Ana Bankova',
    'Anna (your sister)',
    'Hernán Cortés',
    'Ana Corte-Real',
    'Marina',
    'Abdul Hakim',
    'Dian Sastro',
    'Dea',
    'Justice Smith',
    'Bir Bahadur',
    'Bianca',
    'Blanca',
    'Amy',
    'Tim',
    'Courtney',
    'Polina',
    'Policarpo',
    'Jared Polis',
    'Tyra Banks',
    'Paulina',
    'Armando',
    'Navya',
    'Sheriffa',
    'Bankole',
    'Mamá',
    'José María',
    'Siti Nurhaliza',
    'Budi (kakak)',
    'Kuya Jun',
    'Tita Baby',
    'Juan dela Cruz',
    'Ma. Teresa',
    'Dr. Ahmed',
    'Ni Luh Putu Ayu',
    'Ирина Зубова',
  ])('%j is accepted', (name) => {
    expect(requesterNameProblem(name, prototypeOf)).toBeNull();
  });

  it('refuses the name the product is given in the settings, not a fixed one', () => {
    expect(claimsAuthority('Locatr Team', prototypeOf, 'Locatr')).toBe(true);
    expect(claimsAuthority('L0CATR', prototypeOf, 'Locatr')).toBe(true);
    expect(claimsAuthority('Chamspy', prototypeOf, 'Locatr')).toBe(false);
    // A short product name counts as a whole word only.
    expect(claimsAuthority('Spy', prototypeOf, 'Spy')).toBe(true);
    expect(claimsAuthority('Spyros', prototypeOf, 'Spy')).toBe(false);
  });

  it('is checked after the readable-text rule: a link in an authority name is refused as a link', () => {
    expect(requesterNameProblem('police.gov', prototypeOf)).toBe('Validation.requesterNameLink');
  });
});

describe('authority names through the API', () => {
  it.each([
    ['en', 'Police', "A name can't claim to be the police, a bank, a court or our service"],
    [
      'es',
      'Policía Nacional',
      'Un nombre no puede hacerse pasar por la policía, un banco, un juzgado ni nuestro servicio',
    ],
    ['id', 'Bank BCA', 'Nama tidak boleh mengaku sebagai polisi, bank, pengadilan, atau layanan kami'],
    ['es', 'P0LICIA', 'Un nombre no puede hacerse pasar por la policía, un banco, un juzgado ni nuestro servicio'],
    ['en', 'Chamspy Support', "A name can't claim to be the police, a bank, a court or our service"],
    ['en', 'Pulis', "A name can't claim to be the police, a bank, a court or our service"],
  ])('POST /portal/order (%s) refuses %j with 422 and stores no order', async (lang, name, msg) => {
    await expectOrderRefused(
      { email: uniqueEmail(`authority-${lang}`), requesterName: name },
      lang,
      'requesterName',
      msg,
    );
  });

  it('refuses an authority name on a new request from the dashboard too, and creates no request', async () => {
    const buyer = await buyAccount(uniqueEmail('authority-new'));
    await expectNewRequestRefused(
      buyer.token,
      { phone: '+34612340071', requesterName: 'Guardia Civil' },
      'es',
      'requesterName',
      'Un nombre no puede hacerse pasar por la policía, un banco, un juzgado ni nuestro servicio',
    );
  });
});

/** The consent code of the newest SMS of request `requestId`. */
async function codeOf(requestId: string): Promise<string> {
  const db = await getDb();
  const [sms] = await db.select().from(outboundMessages).where(eq(outboundMessages.locationRequestId, requestId));
  return /\?c=([A-Za-z0-9_-]+)/.exec(sms.body)![1];
}

/** The facts line as the consent page writes it, in `locale`. */
function factsLine(facts: RequesterFacts, locale: 'en' | 'es' | 'id') {
  const t = createTranslator({ locale, messages: { en, es, id }[locale], namespace: 'Consent' });
  return requesterFactsText(facts, locale, t);
}

describe('what the owner is told of the account that asks', () => {
  it('a new account with its first request: "Account created today, first request"', async () => {
    const email = uniqueEmail('facts-new');
    const buyer = await buyAccount(email);
    expect(buyer.token).toBeTruthy();
    const db = await getDb();
    const [user] = await db.select().from(users).where(eq(users.email, email.toLowerCase()));
    const [request] = await db.select().from(locationRequests).where(eq(locationRequests.userId, user.id));
    const view = await call('GET', `/spyContent/consent/${await codeOf(request.id)}`);
    const { obj } = await view.json();
    expect(obj.facts).toEqual({
      newAccount: true,
      since: new Date().toISOString().slice(0, 7),
      requests: 1,
      reported: 0,
    });
    // Nothing of the buyer beyond the masked e-mail and these facts.
    expect(JSON.stringify(obj)).not.toContain(email);
    expect(JSON.stringify(obj)).not.toContain(user.id);
    expect(factsLine(obj.facts, 'en')).toBe('Account created today, first request');
    expect(factsLine(obj.facts, 'es')).toBe('Cuenta creada hoy, primera solicitud');
    expect(factsLine(obj.facts, 'id')).toBe('Akun dibuat hari ini, permintaan pertama');
  });

  it('an older account with 3 requests, one of them reported: "Customer since March 2026, 3 requests, 1 reported"', async () => {
    const email = uniqueEmail('facts-old');
    const buyer = await buyAccount(email);
    const links: string[] = [];
    for (const phone of ['+34612340072', '+34612340073']) {
      const { res, body } = await newRequest(buyer.token, { phone, requesterName: 'Anna (your sister)' });
      expect(res.status).toBe(201);
      links.push(body.obj.link);
    }
    const [first, second] = links.map((link) => new URL(link).searchParams.get('c')!);
    const db = await getDb();
    await db
      .update(users)
      .set({ createdAt: new Date('2026-03-14T10:00:00Z') })
      .where(eq(users.email, email.toLowerCase()));

    const before = (await (await call('GET', `/spyContent/consent/${second}`)).json()).obj.facts;
    expect(before).toEqual({ newAccount: false, since: '2026-03', requests: 3, reported: 0 });
    expect(factsLine(before, 'en')).toBe('Customer since March 2026, 3 requests, none reported');

    // The owner of the first number reports the request, twice: it counts once.
    for (let i = 0; i < 2; i++) {
      expect((await call('PUT', `/spyContent/phoneLocation/${first}`, { body: { action: 'report' } })).status).toBe(
        200,
      );
    }
    const firstId = (
      await db
        .select()
        .from(locationRequests)
        .where(eq(locationRequests.targetE164, '+34612340072' as E164))
    )[0].id;
    expect(await db.select().from(consents).where(eq(consents.requestId, firstId))).toHaveLength(2);

    const after = (await (await call('GET', `/spyContent/consent/${second}`)).json()).obj.facts;
    expect(after).toEqual({ newAccount: false, since: '2026-03', requests: 3, reported: 1 });
    expect(factsLine(after, 'en')).toBe('Customer since March 2026, 3 requests, 1 reported');
    expect(factsLine(after, 'es')).toBe('Cliente desde marzo de 2026, 3 solicitudes, 1 denunciada');
    expect(factsLine(after, 'id')).toBe('Pelanggan sejak Maret 2026, 3 permintaan, 1 dilaporkan');
    expect(factsLine({ ...after, reported: 0 }, 'es')).toBe(
      'Cliente desde marzo de 2026, 3 solicitudes, ninguna denunciada',
    );
    expect(factsLine({ ...after, reported: 0 }, 'id')).toBe(
      'Pelanggan sejak Maret 2026, 3 permintaan, tidak ada yang dilaporkan',
    );
  });

  it('counts an account 23 hours old as created today and one 25 hours old by its month', async () => {
    const email = uniqueEmail('facts-age');
    await buyAccount(email);
    const db = await getDb();
    const [user] = await db.select().from(users).where(eq(users.email, email.toLowerCase()));
    const [request] = await db.select().from(locationRequests).where(eq(locationRequests.userId, user.id));
    const code = await codeOf(request.id);
    const facts = async (hoursAgo: number) => {
      const createdAt = new Date(Date.now() - hoursAgo * 3600_000);
      await db.update(users).set({ createdAt }).where(eq(users.id, user.id));
      return { createdAt, facts: (await (await call('GET', `/spyContent/consent/${code}`)).json()).obj.facts };
    };
    expect((await facts(23)).facts.newAccount).toBe(true);
    const older = await facts(25);
    expect(older.facts).toMatchObject({ newAccount: false, since: older.createdAt.toISOString().slice(0, 7) });
  });
});

describe("the consent SMS is written in the owner's language, with the name quoted", () => {
  it.each([
    // The number's country decides, not the buyer's page: each order is placed from a page in another language.
    {
      phone: '+34612340081',
      page: 'en',
      locale: 'es',
      start: '«Anna (your sister)» pide la ubicación de este teléfono a través de Chamspy. Comparte o rechaza aquí: ',
      prefix: '/es/location/',
      sms: { encoding: 'UCS-2', segments: 3 },
    },
    {
      phone: '+6281234560081',
      page: 'es',
      locale: 'id',
      start: '"Anna (your sister)" meminta lokasi ponsel ini melalui Chamspy. Bagikan atau tolak di sini: ',
      prefix: '/id/location/',
      sms: { encoding: 'GSM-7', segments: 1 },
    },
    {
      phone: '+639171230081',
      page: 'es',
      locale: 'en-PH',
      start: '"Anna (your sister)" asks for this phone\'s location via Chamspy. Share or decline here: ',
      prefix: '/ph/location/',
      sms: { encoding: 'GSM-7', segments: 1 },
    },
    {
      phone: '+447400550081',
      page: 'id',
      locale: 'en',
      start: '"Anna (your sister)" asks for this phone\'s location via Chamspy. Share or decline here: ',
      prefix: '/location/',
      sms: { encoding: 'GSM-7', segments: 1 },
    },
  ])('$phone from a page in $page: $locale, $sms.encoding in $sms.segments part(s)', async (c) => {
    const { res, body } = await placeOrder(
      { email: uniqueEmail(`sms-${c.locale}`), phone: c.phone, locale: c.page },
      { 'accept-language': c.page },
    );
    expect(res.status).toBe(201);
    expect((await payCard(body.obj.code, '4242424242424242')).status).toBe(200);
    const db = await getDb();
    const [order] = await db.select().from(orders).where(eq(orders.code, body.obj.code));
    const [request] = await db.select().from(locationRequests).where(eq(locationRequests.orderId, order.id));
    expect(request.locale).toBe(c.locale);
    const [sms] = await db.select().from(outboundMessages).where(eq(outboundMessages.locationRequestId, request.id));
    expect(sms.locale).toBe(c.locale);
    expect(sms.body.startsWith(c.start)).toBe(true);
    expect(new URL(sms.body.slice(c.start.length)).pathname).toBe(c.prefix);
    expect(smsSegments(sms.body)).toEqual(c.sms);
  });

  it('keeps the name exactly as written inside the quotes, quotes and apostrophes included', async () => {
    const buyer = await buyAccount(uniqueEmail('sms-asis'));
    const name = 'María José "Pepa" O\'Neill';
    const { res, body } = await newRequest(buyer.token, { phone: '+447400550082', requesterName: name }, 'es');
    expect(res.status).toBe(201);
    const db = await getDb();
    const [request] = await db.select().from(locationRequests).where(eq(locationRequests.id, body.obj.id));
    expect(request.locale).toBe('en');
    expect(request.smsText.startsWith(`"${name}" asks for this phone's location via Chamspy.`)).toBe(true);
  });
});
