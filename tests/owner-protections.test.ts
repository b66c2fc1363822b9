import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { getDb } from '@/server/db/client';
import { consents, locationRequests, optOuts, orders, outboundMessages } from '@/server/db/schema';
import { foldName, markRows } from '@/server/services/locate';
import { randomToken } from '@/server/services/tokens';
import { call, nextIp, nextPhone, tokenOf, uniqueEmail } from './support/accounts';

// The owner's protections hold for the person, not the account (services/locate/requester-marks.ts,
// docs/decisions/0018-owner-protections-follow-the-requester.md): a decline's cool-down, a block and the review
// signals follow the requester's browser, address and name to a new e-mail, and answers the requester gives to their
// own links never count.

const NAME = 'Anna (your sister)';
const FIX = { latitude: 40.4, longitude: -3.7, accuracy: 12 };

/** A fresh browser's `offer_browser` cookie (22 base64url characters, as the API sets it). */
const newBrowser = () => `offer_browser=${randomToken(16)}`;

type Who = { ip: string; browser: string; name?: string };

/** `POST /portal/order` from `who` (address, browser, requester name) for `phone` with a new e-mail. */
function order(phone: string, who: Who, email = uniqueEmail('protect')) {
  return call('POST', '/portal/order', {
    body: { email, phone, requesterName: who.name ?? NAME, terms: true, startNow: true },
    headers: { cookie: who.browser },
    ip: who.ip,
  });
}

/** Orders and pays from `who`; the request id, its consent code and the buyer's session cookie. */
async function buy(phone: string, who: Who) {
  const placed = await order(phone, who);
  expect(placed.status).toBe(201);
  const { code } = (await placed.json()).obj;
  const pay = await call('POST', `/portal/order/${code}/sandboxPay`, {
    body: { cardNumber: '4242424242424242', expiry: '12/34', cvc: '123', zip: '10001' },
    headers: { cookie: who.browser },
    ip: who.ip,
  });
  expect(pay.status).toBe(200);
  const db = await getDb();
  const [row] = await db.select().from(orders).where(eq(orders.code, code));
  const [request] = await db.select().from(locationRequests).where(eq(locationRequests.orderId, row.id));
  const [sms] = await db.select().from(outboundMessages).where(eq(outboundMessages.locationRequestId, request.id));
  return {
    requestId: request.id,
    code: /\?c=([A-Za-z0-9_-]+)/.exec(sms.body)![1],
    cookie: `token=${tokenOf(pay)}`,
    sms,
  };
}

/** The owner's answer on the consent page, from the owner's own address unless `as` says otherwise. */
function answer(code: string, body: Record<string, string | number>, as: { ip?: string; cookie?: string } = {}) {
  return call('PUT', `/spyContent/phoneLocation/${code}`, {
    body,
    ip: as.ip ?? nextIp(),
    headers: as.cookie ? { cookie: as.cookie } : {},
  });
}

/** A New request of the signed-in buyer `cookie` for `phone` from `who`; its id and consent code. */
async function ask(cookie: string, phone: string, who: Who) {
  const res = await call('POST', '/spyContent/phoneLocation', {
    body: { phone, requesterName: who.name ?? NAME },
    headers: { cookie: `${cookie}; ${who.browser}` },
    ip: who.ip,
  });
  expect(res.status).toBe(201);
  const { id, link } = (await res.json()).obj;
  return { id: id as string, code: new URL(link).searchParams.get('c')! };
}

/**
 * `me` buys a request and asks two more numbers; the owners of all three decline, answering `as` (from their own
 * address unless said otherwise). Returns the first purchase.
 */
async function threeDeclined(me: Who, as: { ip?: string } = {}) {
  const first = await buy(nextPhone(), me);
  expect((await answer(first.code, { action: 'decline' }, as)).status).toBe(200);
  for (let i = 0; i < 2; i++) {
    const next = await ask(first.cookie, nextPhone(), me);
    expect((await answer(next.code, { action: 'decline' }, as)).status).toBe(200);
  }
  return first;
}

describe('a refusal follows the requester to a new e-mail', () => {
  it('after a decline: the same address, browser or name is refused before payment, 20 at once; another person is not', async () => {
    const phone = nextPhone();
    const first: Who = { ip: nextIp(), browser: newBrowser() };
    const bought = await buy(phone, first);
    expect((await answer(bought.code, { action: 'decline' })).status).toBe(200);

    const disguises: Who[] = [
      { ip: first.ip, browser: newBrowser(), name: 'Marta' }, // same address
      { ip: nextIp(), browser: first.browser, name: 'Marta' }, // same browser
      { ip: nextIp(), browser: newBrowser(), name: 'ÁNNA  (Your Sister)' }, // the same name, folded
      { ip: nextIp(), browser: newBrowser(), name: 'Аnna (your sister)' }, // Cyrillic А
    ];
    const attempts = await Promise.all(
      Array.from({ length: 20 }, (_, i) => order(phone, disguises[i % disguises.length])),
    );
    expect(attempts.map((r) => r.status)).toEqual(Array(20).fill(403));
    const msg = (await attempts[0].json()).msg as string;
    expect(msg).toContain('declined');
    // Nothing was kept of the refused orders, nor was any SMS written.
    const db = await getDb();
    const toNumber = await db.select().from(outboundMessages).where(eq(outboundMessages.recipient, phone));
    expect(toNumber).toHaveLength(1);

    // Someone else (another address, browser and name) may still ask.
    expect((await order(phone, { ip: nextIp(), browser: newBrowser(), name: 'Marta (your neighbour)' })).status).toBe(
      201,
    );
  });

  it('after a block in the safety centre: a new e-mail from the same browser is refused with the neutral answer', async () => {
    const phone = nextPhone();
    const first: Who = { ip: nextIp(), browser: newBrowser() };
    const bought = await buy(phone, first);
    const enter = await call('POST', '/safety/session/consent', { body: { code: bought.code } });
    expect(enter.status).toBe(200);
    const safety = /safety_token=[^;]+/.exec(enter.headers.get('set-cookie') ?? '')![0];
    const blocked = await call('POST', '/safety/actions', {
      body: { action: 'block', requestId: bought.requestId },
      headers: { cookie: safety },
    });
    expect(blocked.status).toBe(200);
    const again = await order(phone, { ip: nextIp(), browser: first.browser, name: 'Marta' });
    expect(again.status).toBe(403);
    expect((await again.json()).msg).toBe('This number does not accept location requests.');
  });
});

describe('the review signal counts the person, and never the requester’s own answers', () => {
  it('three declines under one e-mail hold the SMS of a new e-mail from the same browser', async () => {
    const me: Who = { ip: nextIp(), browser: newBrowser() };
    await threeDeclined(me);
    // A new e-mail, a new address: the same browser.
    const again = await buy(nextPhone(), { ip: nextIp(), browser: me.browser });
    expect(again.sms).toMatchObject({ status: 'queued', lastError: 'held for review: mostly_refused' });
  });

  it('shares given from the buyer’s own session, browser or address do not outweigh the owners’ declines', async () => {
    const me: Who = { ip: nextIp(), browser: newBrowser() };
    const first = await threeDeclined(me);
    // The buyer answers four of their own links: signed in, from their browser, from their address.
    const own = await Promise.all([0, 1, 2, 3].map(() => ask(first.cookie, nextPhone(), me)));
    const ways = [{ cookie: first.cookie }, { cookie: me.browser }, { ip: me.ip }, { cookie: first.cookie, ip: me.ip }];
    for (const [i, r] of own.entries()) {
      expect((await answer(r.code, { action: 'share', minutes: 15, ...FIX }, ways[i])).status).toBe(200);
    }
    const db = await getDb();
    const sides = [];
    for (const r of own) {
      const [record] = await db.select().from(consents).where(eq(consents.requestId, r.id));
      sides.push(record.requesterSide);
    }
    expect(sides).toEqual(['session', 'device', 'address', 'session']);
    // An owner's own answer from elsewhere is not the requester's.
    const [declined] = await db.select().from(consents).where(eq(consents.requestId, first.requestId));
    expect(declined.requesterSide).toBeNull();
    const last = await buy(nextPhone(), { ip: nextIp(), browser: me.browser });
    expect(last.sms.lastError).toBe('held for review: mostly_refused');
  });
});

describe('a report from the requester’s side does not opt the number out for everyone', () => {
  it('the buyer reporting their own link (signed in, or from their browser) is recorded; the owner’s report opts out', async () => {
    const db = await getDb();
    for (const side of ['session', 'browser'] as const) {
      const phone = nextPhone();
      const me: Who = { ip: nextIp(), browser: newBrowser() };
      const bought = await buy(phone, me);
      const as = side === 'session' ? { cookie: bought.cookie } : { cookie: me.browser };
      expect((await answer(bought.code, { action: 'report' }, as)).status).toBe(200);
      const [record] = await db.select().from(consents).where(eq(consents.requestId, bought.requestId));
      expect(record).toMatchObject({ decision: 'reported', requesterSide: side === 'session' ? 'session' : 'device' });
      expect(await db.select().from(optOuts).where(eq(optOuts.phoneE164, phone))).toHaveLength(0);
      // Another requester may still ask the number.
      const other = await order(phone, { ip: nextIp(), browser: newBrowser(), name: 'Marta (your neighbour)' });
      expect(other.status).toBe(201);
    }
    // The owner's own report (another browser; even from the same home address) opts the number out.
    const phone = nextPhone();
    const me: Who = { ip: nextIp(), browser: newBrowser() };
    const bought = await buy(phone, me);
    expect((await answer(bought.code, { action: 'report' }, { ip: me.ip })).status).toBe(200);
    expect(await db.select().from(optOuts).where(eq(optOuts.phoneE164, phone))).toHaveLength(1);
  });
});

describe('the requester’s own answers weigh only against the requester', () => {
  it('a decline the requester sends from their own session or browser holds back no one else', async () => {
    for (const side of ['session', 'browser'] as const) {
      const phone = nextPhone();
      const me: Who = { ip: nextIp(), browser: newBrowser(), name: 'Mom' };
      const bought = await buy(phone, me);
      const as = side === 'session' ? { cookie: bought.cookie } : { cookie: me.browser };
      expect((await answer(bought.code, { action: 'decline' }, as)).status).toBe(200);
      // Another requester with the same name, from elsewhere, is not put in a cool-down by it.
      expect((await order(phone, { ip: nextIp(), browser: newBrowser(), name: 'Mom' })).status).toBe(201);
    }
  });

  it('declines an owner sends from the requester’s own network still count (a shared home Wi-Fi)', async () => {
    const me: Who = { ip: nextIp(), browser: newBrowser() };
    const first = await threeDeclined(me, { ip: me.ip });
    const again = await ask(first.cookie, nextPhone(), me);
    const db = await getDb();
    const [sms] = await db.select().from(outboundMessages).where(eq(outboundMessages.locationRequestId, again.id));
    expect(sms.lastError).toBe('held for review: mostly_refused');
    // And the owner's decline from that network starts the cool-down for the same number.
    const [declined] = await db.select().from(consents).where(eq(consents.requestId, first.requestId));
    expect(declined.requesterSide).toBe('address');
  });
});

describe('a safety code to an opted-out number', () => {
  it('is sent when the owner asks from their link, never when the requester asks from the same link', async () => {
    const phone = nextPhone();
    const me: Who = { ip: nextIp(), browser: newBrowser() };
    const bought = await buy(phone, me);
    // The owner reports (from elsewhere): the number is on the opt-out list.
    expect((await answer(bought.code, { action: 'report' })).status).toBe(200);
    const db = await getDb();
    const codes = async () =>
      (await db.select().from(outboundMessages).where(eq(outboundMessages.recipient, phone))).filter(
        (m) => m.template === 'safety_code',
      ).length;
    /** Opens the safety centre with the link as `as`, then asks a code from that session. */
    const askCode = async (as: { ip: string; cookie?: string }) => {
      const entered = await call('POST', '/safety/session/consent', {
        body: { code: bought.code },
        ip: as.ip,
        headers: as.cookie ? { cookie: as.cookie } : {},
      });
      expect(entered.status).toBe(200);
      const safety = /safety_token=[^;]+/.exec(entered.headers.get('set-cookie') ?? '')![0];
      const res = await call('POST', '/safety/code', {
        body: { phone },
        ip: as.ip,
        headers: { cookie: as.cookie ? `${as.cookie}; ${safety}` : safety },
      });
      expect(res.status).toBe(200);
    };
    // The requester, signed in or from their browser: no code goes.
    await askCode({ ip: nextIp(), cookie: bought.cookie });
    await askCode({ ip: nextIp(), cookie: me.browser });
    await new Promise((r) => setTimeout(r, 200));
    expect(await codes()).toBe(0);
    // The owner, with the link on their own phone, even on the requester's home network: the code goes.
    await askCode({ ip: me.ip });
    for (let i = 0; i < 20 && (await codes()) === 0; i++) await new Promise((r) => setTimeout(r, 50));
    expect(await codes()).toBe(1);
  });
});

describe('requester marks', () => {
  it('fold names by look-alikes, accents, case and punctuation, and keep only what is known', () => {
    expect(foldName('Ánna  (Your Sister)')).toBe(foldName('anna your sister'));
    expect(foldName('Аnna')).toBe(foldName('Anna')); // Cyrillic А
    expect(foldName('Marta')).not.toBe(foldName('Anna'));
    expect(markRows({ account: 'a', device: null, address: 'not-an-ip', name: '  ' }).map((r) => r.kind)).toEqual([
      'account',
    ]);
    const [v4, v6a, v6b] = ['81.2.69.142', '2001:db8:1:2::1', '2001:db8:1:2:ffff::9'].map(
      (address) => markRows({ address })[0].value,
    );
    expect(v6a).toBe(v6b); // one /64
    expect(v4).not.toBe(v6a);
  });
});
