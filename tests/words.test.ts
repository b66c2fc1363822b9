import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { getDb } from '@/server/db/client';
import { priceSetups } from '@/server/db/schema';
import { formatMoney } from '@/server/services/money';
import en from '../messages/en.json';
import es from '../messages/es.json';
import id from '../messages/id.json';
import { call, tokenOf } from './support/accounts';
import { emailsTo, placeOrder } from './support/billing';

const unique = (tag: string) => `${tag}.${Date.now()}.${Math.random().toString(36).slice(2, 7)}@example.com`;

/** Every string of a catalogue with its dotted key. */
function entries(tree: object, prefix = ''): [string, string][] {
  return Object.entries(tree).flatMap(([k, v]) =>
    typeof v === 'string' ? [[`${prefix}${k}`, v] as [string, string]] : entries(v as object, `${prefix}${k}.`),
  );
}

/** Acronyms and units written in capitals on purpose (date patterns such as MM/YY are allowed too). */
const ACRONYMS = new Set(['FAQ', 'CVC', 'UAN', '24H', '24 H']);

describe('the words of the catalogues', () => {
  it.each([
    ['en', en],
    ['es', es],
    ['id', id],
  ])('%s has no text in capitals only (buttons read "Try again", not "RETRY")', (_, catalogue) => {
    const shouting = entries(catalogue).filter(
      ([, v]) =>
        /\p{Lu}{2}/u.test(v) && v === v.toLocaleUpperCase() && !ACRONYMS.has(v) && !/^\p{Lu}{2}\/\p{Lu}{2}$/u.test(v),
    );
    expect(shouting).toEqual([]);
  });

  it.each([
    ['en', en],
    ['es', es],
    ['id', id],
  ])('%s names what was changed instead of "Successfully modified"', (_, catalogue) => {
    const texts = entries(catalogue).map(([, v]) => v);
    expect(texts.filter((v) => /successfully modified|modificado correctamente|berhasil diubah/i.test(v))).toEqual([]);
  });
});

describe('one word for one thing, and only what is true (docs/rules.md#honest-copy)', () => {
  const strings = (catalogue: object) => entries(catalogue).map(([, v]) => v);

  it('es calls the phone\'s owner "titular" (the holder of the number), never "dueño" or "propietario"', () => {
    const others = entries(es).filter(([, v]) => /\b(dueñ[oa]s?|propietari[oa]s?)\b/iu.test(v));
    expect(others).toEqual([]);
    expect(strings(es).filter((v) => /\btitular\b/u.test(v)).length).toBeGreaterThan(20);
  });

  it('id says "Temukan lokasi", not "Lacak" (track), where en says Locate; and "Aktif" for a live share', () => {
    const enTexts = new Map(entries(en));
    const tracked = entries(id).filter(
      ([k, v]) => /\blocat(e|es|ing)\b/i.test(enTexts.get(k) ?? '') && /lacak/i.test(v),
    );
    expect(tracked).toEqual([]);
    expect(id.Map.live.live).toBe('Aktif');
  });

  it("no catalogue promises an update rhythm the owner's page does not keep (it sends as the phone moves)", () => {
    for (const catalogue of [en, es, id]) {
      expect(
        strings(catalogue)
          .filter((v) => /\b\d+ (seconds|segundos|detik)\b/i.test(v) && !/\{seconds\}/.test(v))
          .filter((v) => /(position|posici|posisi)/i.test(v)),
      ).toEqual([]);
    }
    expect(en.Home.feature2Description).toMatch(/as it moves/);
    expect(en.Landing.gpsLocator.point3).toMatch(/as the phone moves, while the owner's page is open/);
  });

  it('"as the law requires" names the law', () => {
    const vague = /as the law requires|como exige la ley|sesuai hukum/i;
    for (const catalogue of [en, es, id]) expect(strings(catalogue).filter((v) => vague.test(v))).toEqual([]);
    expect(en.Safety.eraseConfirm).toContain('GDPR (Art. 7(1))');
    expect(es.Safety.eraseConfirm).toContain('RGPD (art. 7.1)');
    expect(id.Safety.eraseConfirm).toContain('GDPR (Pasal 7 ayat 1)');
  });
});

describe('a wallet refund speaks of the wallet, not the card', () => {
  it('the confirmation, the answer and the e-mail', async () => {
    const email = unique('wallet-refund');
    const order = await placeOrder({ email, method: 'wallet' });
    const paid = await call('POST', `/portal/order/${order.body.obj.code}/sandboxWallet`, { body: { approve: true } });
    expect(paid.status).toBe(200);
    const cookie = `token=${tokenOf(paid)}`;
    const code = order.body.obj.code as string;
    const detail = (
      await (await call('POST', '/admin/order/refundDetail', { body: { code }, headers: { cookie } })).json()
    ).obj;
    expect(detail).toMatchObject({ eligible: true, method: 'wallet' });
    const res = await call('POST', '/admin/order/refund', { body: { code }, headers: { cookie } });
    expect(res.status).toBe(200);
    const { msg } = await res.json();
    expect(msg).toBe(
      'Refund of US$0.99 issued to the wallet you paid with. When it shows there depends on the wallet.',
    );
    expect(msg).not.toMatch(/card/i);
    const [mail] = await emailsTo(email, 'refund-issued');
    expect(mail.body).toContain('It goes back to the wallet you paid with');
    expect(mail.body).not.toMatch(/card/i);
  });
});

describe("prices in the visitor's currency, or US dollars said plainly", () => {
  it('writes US dollars as US$ in English (not a bare $), as Spanish and Indonesian do', () => {
    expect(formatMoney(99, 'USD', 'en')).toBe('US$0.99');
    expect(formatMoney(99, 'USD', 'en-PH')).toBe('US$0.99');
    expect(formatMoney(99, 'USD', 'es')).toBe('0,99\u00a0US$');
    expect(formatMoney(99, 'USD', 'id')).toBe('US$0,99');
    expect(formatMoney(4999, 'PHP', 'en-PH')).toBe('₱49.99');
  });

  it("shows a price setup in the page language's currency when one exists (es → EUR), else the default in USD", async () => {
    const db = await getDb();
    const [eur] = await db
      .insert(priceSetups)
      .values({ currency: 'EUR', trialPriceMinor: 95, monthlyPriceMinor: 4795, isDefault: false })
      .returning();
    try {
      const es = (await (await call('GET', '/portal/priceSetup', { headers: { 'accept-language': 'es' } })).json()).obj;
      expect(es).toMatchObject({ id: eur.id, currency: 'EUR', trialText: '0,95\u00a0€', monthlyText: '47,95\u00a0€' });
      const en = (await (await call('GET', '/portal/priceSetup', { headers: { 'accept-language': 'en' } })).json()).obj;
      expect(en).toMatchObject({ currency: 'USD', trialText: 'US$0.99' });
      // The pay step and the order use the same setup: a Spanish buyer is charged in euros.
      const offer = await call('POST', '/portal/priceSetup/offer', {
        body: { email: unique('eur'), phone: '+34612345678' },
        headers: { 'accept-language': 'es' },
      });
      expect((await offer.json()).obj.plan).toMatchObject({ id: eur.id, currency: 'EUR' });
      const order = await placeOrder({ email: unique('eur-order'), locale: 'es' }, { 'accept-language': 'es' });
      expect(order.body.obj).toMatchObject({ currency: 'EUR', amountMinor: 95 });
    } finally {
      await db
        .delete(priceSetups)
        .where(eq(priceSetups.id, eur.id))
        .catch(() => {});
    }
  });
});
