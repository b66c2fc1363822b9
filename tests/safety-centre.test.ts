import { and, eq, inArray } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { getDb } from '@/server/db/client';
import {
  consents,
  locationRequests,
  optOuts,
  orders,
  outboundMessages,
  positions,
  safetyCodes,
  safetySessions,
} from '@/server/db/schema';
import { sha256 } from '@/server/services/tokens';
import { call, nextIp, nextPhone, uniqueEmail } from './support/accounts';
import { placeOrder, payCard } from './support/billing';
import { undeliveredMessages } from '@/server/services/ops';
import { dueOutboxIds } from '@/server/services/messaging';
import { pruneSafety } from '@/server/services/safety';
import { ownerRefusal } from '@/server/services/locate';
import { env } from '@/server/env';
import { getBoss } from '@/server/jobs/boss';
import { Client } from 'pg';

// The phone owner's safety centre through the API as its page calls it: entry by consent link or SMS code, the list
// scoped to one number, and the actions going through the request state machine with their consent records.

const FIX = { latitude: 52.52, longitude: 13.405, accuracy: 15 };

/** The consent code in the newest SMS of request `requestId`. */
async function codeOf(requestId: string): Promise<string> {
  const db = await getDb();
  const rows = await db.select().from(outboundMessages).where(eq(outboundMessages.locationRequestId, requestId));
  const body = rows.sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime())[0].body;
  return /\?c=([A-Za-z0-9_-]+)/.exec(body)![1];
}

/** A buyer with a paid trial whose first request goes to `phone`: their session cookie, id and that request. */
async function buyer(tag: string, phone: string, requesterName = 'Anna (your sister)') {
  const { body } = await placeOrder({ email: uniqueEmail(tag), phone, requesterName });
  const pay = await payCard(body.obj.code, '4242424242424242');
  expect(pay.status).toBe(200);
  const token = /(?:^|, )token=([^;]+)/.exec(pay.headers.get('set-cookie') ?? '')![1];
  const db = await getDb();
  const [order] = await db.select().from(orders).where(eq(orders.code, body.obj.code));
  const [request] = await db.select().from(locationRequests).where(eq(locationRequests.orderId, order.id));
  return { cookie: `token=${token}`, requestId: request.id, userId: request.userId, code: await codeOf(request.id) };
}

/** Another requester's name: a refusal follows the requester name too (services/locate/requester-marks.ts). */
const OTHER_NAME = 'Marta (your neighbour)';

/** The buyer asks `phone` again (a new request from the dashboard), named `requesterName`. */
function askAgain(cookie: string, phone: string, requesterName = 'Anna (your sister)') {
  return call('POST', '/spyContent/phoneLocation', {
    body: { phone, requesterName },
    headers: { cookie },
  });
}

/** The owner's answer on the consent page. */
function answer(code: string, body: Record<string, string | number>) {
  return call('PUT', `/spyContent/phoneLocation/${code}`, { body });
}

/** Opens the safety centre with a consent code; returns the safety cookie. */
async function enter(code: string): Promise<string> {
  const res = await call('POST', '/safety/session/consent', { body: { code } });
  expect(res.status).toBe(200);
  const cookie = res.headers.get('set-cookie') ?? '';
  expect(cookie).toMatch(/safety_token=[^;]+;.*HttpOnly/i);
  expect(cookie).toMatch(/Max-Age=1800/);
  return /safety_token=([^;]+)/.exec(cookie)![0];
}

/**
 * Opens the safety centre with a one-time code sent by SMS to `phone`, asked with safety cookie `from` when given (a
 * number on the opt-out list gets a code only when asked from a session of its own); returns the safety cookie.
 */
async function enterBySms(phone: string, from?: string): Promise<string> {
  const headers = from ? { cookie: from } : undefined;
  expect((await call('POST', '/safety/code', { body: { phone }, headers })).status).toBe(200);
  const db = await getDb();
  const sent = await db
    .select()
    .from(outboundMessages)
    .where(and(eq(outboundMessages.recipient, phone), eq(outboundMessages.template, 'safety_code')));
  const newest = sent.sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime())[0];
  const code = /\b(\d{6})\b/.exec(newest.body)![1];
  const res = await call('POST', '/safety/session', { body: { phone, code } });
  expect(res.status).toBe(200);
  return /safety_token=([^;]+)/.exec(res.headers.get('set-cookie') ?? '')![0];
}

function overview(cookie: string) {
  return call('GET', '/safety', { headers: { cookie } });
}

function act(cookie: string, body: Record<string, string>, ip?: string) {
  return call('POST', '/safety/actions', { body, headers: { cookie }, ip });
}

describe('safety centre: entry by consent link', () => {
  it('a consent code opens a 30-minute session of that number; only the hash is stored; unknown codes are 404', async () => {
    const phone = nextPhone();
    const { code } = await buyer('safety-entry', phone);
    const cookie = await enter(code);
    const token = cookie.split('=')[1];
    const db = await getDb();
    const [row] = await db
      .select()
      .from(safetySessions)
      .where(eq(safetySessions.tokenHash, sha256(token)));
    expect(row.phoneE164).toBe(phone);
    expect(row.expiresAt.getTime() - Date.now()).toBeGreaterThan(29 * 60_000);
    expect(row.expiresAt.getTime() - Date.now()).toBeLessThanOrEqual(30 * 60_000);
    expect(await db.select().from(safetySessions).where(eq(safetySessions.tokenHash, token))).toEqual([]);
    expect((await overview(cookie)).status).toBe(200);
    expect((await call('POST', '/safety/session/consent', { body: { code: 'x'.repeat(22) } })).status).toBe(404);
    // No session, a buyer's session, or an ended one: 401.
    expect((await overview('')).status).toBe(401);
    await db
      .update(safetySessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(safetySessions.phoneE164, phone));
    expect((await overview(cookie)).status).toBe(401);
  });

  it("one number's centre never shows another number's requests, and no action reaches them", async () => {
    const mine = nextPhone();
    const theirs = nextPhone();
    const a = await buyer('safety-mine', mine);
    const b = await buyer('safety-theirs', theirs);
    expect((await answer(b.code, { action: 'share', minutes: 60, ...FIX })).status).toBe(200);
    const cookie = await enter(a.code);
    const list = (await (await overview(cookie)).json()).obj;
    expect(list.phone).toBe(mine);
    expect(list.requests.map((r: { id: string }) => r.id)).toEqual([a.requestId]);
    // A session opened with an SMS code may do everything, unblock included: still nothing of another number.
    const bySms = await enterBySms(mine);
    for (const action of ['block', 'unblock', 'erase', 'report']) {
      expect((await act(bySms, { action, requestId: b.requestId })).status).toBe(404);
    }
    expect((await (await overview(bySms)).json()).obj.requests).toHaveLength(1);
    expect((await act(cookie, { action: 'stop_all' })).status).toBe(200);
    const db = await getDb();
    const [other] = await db.select().from(locationRequests).where(eq(locationRequests.id, b.requestId));
    expect(other.status).toBe('sharing');
    expect(await db.select().from(positions).where(eq(positions.requestId, b.requestId))).not.toEqual([]);
  });
});

describe('safety centre: a session opened with a consent link', () => {
  it("shows and acts on that link's requester only: a buyer holding their own link never sees or touches another's", async () => {
    const phone = nextPhone();
    const other = await buyer('safety-scope-other', phone);
    expect((await answer(other.code, { action: 'share', minutes: 60, ...FIX })).status).toBe(200);
    const holder = await buyer('safety-scope-holder', phone);
    // The buyer holds their own consent link (it is shown to them to pass on) and opens the centre with it.
    const cookie = await enter(holder.code);
    const seen = (await (await overview(cookie)).json()).obj;
    expect(seen.requests.map((r: { id: string }) => r.id)).toEqual([holder.requestId]);
    expect(JSON.stringify(seen)).not.toContain(other.requestId);
    for (const action of ['block', 'erase', 'report'] as const)
      expect((await act(cookie, { action, requestId: other.requestId })).status).toBe(404);
    const stopped = await (await act(cookie, { action: 'stop_all' })).json();
    expect(stopped.obj).toMatchObject({ stopped: 0, declined: 1 });
    const db = await getDb();
    const [untouched] = await db.select().from(locationRequests).where(eq(locationRequests.id, other.requestId));
    expect(untouched.status).toBe('sharing');
    // A code sent by SMS to the number opens the whole centre.
    const whole = (await (await overview(await enterBySms(phone))).json()).obj;
    expect(whole.requests.map((r: { id: string }) => r.id).sort()).toEqual([holder.requestId, other.requestId].sort());
  });
});

describe('safety centre: the list', () => {
  it('newest first, with requester, masked e-mail, state, time shared, a unique reference and the map views', async () => {
    const phone = nextPhone();
    const first = await buyer('safety-list-a', phone);
    expect((await answer(first.code, { action: 'share', minutes: 15, ...FIX })).status).toBe(200);
    // The buyer opens the map twice within a minute: one view recorded; reading an ended request records none.
    expect(
      (await call('GET', `/gpsTrace/phoneLocation/${first.requestId}`, { headers: { cookie: first.cookie } })).status,
    ).toBe(200);
    await call('GET', `/gpsTrace/phoneLocation/${first.requestId}`, { headers: { cookie: first.cookie } });
    const second = await buyer('safety-list-b', phone);
    await call('GET', `/gpsTrace/phoneLocation/${second.requestId}`, { headers: { cookie: second.cookie } });
    const cookie = await enterBySms(phone);
    const { requests } = (await (await overview(cookie)).json()).obj;
    expect(requests.map((r: { id: string }) => r.id)).toEqual([second.requestId, first.requestId]);
    const [b, a] = requests;
    expect(a).toMatchObject({ requesterName: 'Anna (your sister)', state: 'sharing', viewCount: 1, positions: 1 });
    expect(a.requester).toMatch(/•/);
    expect(a.requester).not.toContain('safety-list-a');
    expect(a.sharedMs).toBeGreaterThanOrEqual(0);
    expect(a.sharedMs).toBeLessThan(60_000);
    // Opening the centre with a link's code is not opening the consent page: the request keeps its state.
    expect(b).toMatchObject({ viewCount: 0, sharedMs: 0 });
    expect(['queued', 'sms_sent']).toContain(b.state);
    expect(a.reference).toMatch(/^SR-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{2}$/);
    expect(a.reference).not.toBe(b.reference);
    // The reference stays the same on every read.
    const again = (await (await overview(cookie)).json()).obj.requests;
    expect(again.map((r: { reference: string }) => r.reference)).toEqual([b.reference, a.reference]);
  });
});

describe('safety centre: stop everything', () => {
  it('50 at once: every share stopped and every pending request declined once, each with one consent record', async () => {
    const phone = nextPhone();
    const a = await buyer('safety-stop-a', phone);
    const b = await buyer('safety-stop-b', phone);
    const c = await buyer('safety-stop-c', phone);
    expect((await answer(a.code, { action: 'share', minutes: 60, ...FIX })).status).toBe(200);
    expect((await answer(b.code, { action: 'share', minutes: 60, ...FIX })).status).toBe(200);
    const cookie = await enterBySms(phone);
    const results = await Promise.all(
      Array.from({ length: 50 }, () => Promise.resolve(act(cookie, { action: 'stop_all' })).then((r) => r.json())),
    );
    expect(results.every((r) => r.success === 1)).toBe(true);
    expect(results.reduce((n, r) => n + r.obj.stopped, 0)).toBe(2);
    expect(results.reduce((n, r) => n + r.obj.declined, 0)).toBe(1);
    const db = await getDb();
    const ids = [a.requestId, b.requestId, c.requestId];
    const rows = await db.select().from(locationRequests).where(inArray(locationRequests.id, ids));
    expect(Object.fromEntries(rows.map((r) => [r.id, r.status]))).toEqual({
      [a.requestId]: 'stopped',
      [b.requestId]: 'stopped',
      [c.requestId]: 'declined',
    });
    const records = await db.select().from(consents).where(inArray(consents.requestId, ids));
    const ended = records.filter((r) => r.decision !== 'shared');
    expect(ended.map((r) => `${r.requestId}:${r.decision}`).sort()).toEqual(
      [`${a.requestId}:stopped`, `${b.requestId}:stopped`, `${c.requestId}:declined`].sort(),
    );
    // The buyer reads "stopped by the owner"; a position sent afterwards is refused.
    const trace = await (
      await call('GET', `/gpsTrace/phoneLocation/${a.requestId}`, { headers: { cookie: a.cookie } })
    ).json();
    expect(trace.obj).toMatchObject({ status: 'stopped', ended: 'owner' });
    expect((await answer(a.code, { action: 'position', ...FIX })).status).toBe(409);
  });
});

describe('safety centre: block one requester', () => {
  it('refuses that buyer new requests and links before any SMS with the neutral answer; others still ask; unblock works', async () => {
    const phone = nextPhone();
    const blocked = await buyer('safety-block', phone);
    const other = await buyer('safety-other', phone, OTHER_NAME);
    expect((await answer(blocked.code, { action: 'share', minutes: 60, ...FIX })).status).toBe(200);
    const cookie = await enterBySms(phone);
    expect((await act(cookie, { action: 'block', requestId: blocked.requestId })).status).toBe(200);
    const db = await getDb();
    const [ended] = await db.select().from(locationRequests).where(eq(locationRequests.id, blocked.requestId));
    expect(ended.status).toBe('stopped');
    const smsBefore = (await db.select().from(outboundMessages).where(eq(outboundMessages.recipient, phone))).length;
    const refused = await askAgain(blocked.cookie, phone);
    expect(refused.status).toBe(403);
    const optedOutText = (await refused.json()).msg;
    expect(optedOutText).toBe('This number does not accept location requests.');
    const smsAfter = (await db.select().from(outboundMessages).where(eq(outboundMessages.recipient, phone))).length;
    expect(smsAfter).toBe(smsBefore);
    // The other requester is not affected.
    expect((await askAgain(other.cookie, phone, OTHER_NAME)).status).toBe(201);
    const list = (await (await overview(cookie)).json()).obj.requests;
    expect(list.find((r: { id: string }) => r.id === blocked.requestId).blocked).toBe(true);
    // The requester holds consent links too: a session opened with one cannot lift the block; an SMS code can.
    const viaLink = await enter(blocked.code);
    expect((await (await overview(viaLink)).json()).obj.canUndoBlocks).toBe(false);
    expect((await act(viaLink, { action: 'unblock', requestId: blocked.requestId })).status).toBe(403);
    expect((await askAgain(blocked.cookie, phone)).status).toBe(403);
    const bySms = await enterBySms(phone);
    expect((await (await overview(bySms)).json()).obj.canUndoBlocks).toBe(true);
    expect((await act(bySms, { action: 'unblock', requestId: blocked.requestId })).status).toBe(200);
    expect((await askAgain(blocked.cookie, phone)).status).toBe(201);
  });

  it('a block racing 20 new requests of that buyer: once it is in, none gets through, and none of theirs is left open', async () => {
    const phone = nextPhone();
    const target = await buyer('safety-race', phone);
    const cookie = await enter(target.code);
    const [block, ...orders] = await Promise.all([
      act(cookie, { action: 'block', requestId: target.requestId }),
      ...Array.from({ length: 20 }, () => askAgain(target.cookie, phone)),
    ]);
    expect(block.status).toBe(200);
    expect(orders.every((r) => r.status === 201 || r.status === 403)).toBe(true);
    const db = await getDb();
    const theirs = await db
      .select()
      .from(locationRequests)
      .where(and(eq(locationRequests.targetE164, phone), eq(locationRequests.userId, target.userId)));
    // Every request that got in before the block was ended by it (declined); none is waiting for the owner.
    expect(theirs.filter((r) => ['queued', 'sms_sent', 'opened', 'sharing', 'paused'].includes(r.status))).toEqual([]);
    expect((await askAgain(target.cookie, phone)).status).toBe(403);
  });
});

describe('safety centre: block everyone, delete, report', () => {
  it('block everyone is the opt-out list, and it can be undone', async () => {
    const phone = nextPhone();
    const a = await buyer('safety-all', phone);
    const cookie = await enterBySms(phone);
    expect((await (await act(cookie, { action: 'block_all' })).json()).obj).toMatchObject({ optedOut: true });
    expect((await askAgain(a.cookie, phone)).status).toBe(403);
    const db = await getDb();
    expect(await db.select().from(optOuts).where(eq(optOuts.phoneE164, phone))).toHaveLength(1);
    const viaLink = await enter(a.code);
    expect((await act(viaLink, { action: 'unblock_all' })).status).toBe(403);
    // The number is on the list: the code comes when asked from the number's own consent link.
    const bySms = await enterBySms(phone, viaLink);
    expect((await (await act(bySms, { action: 'unblock_all' })).json()).obj).toMatchObject({ optedOut: false });
    expect(await db.select().from(optOuts).where(eq(optOuts.phoneE164, phone))).toEqual([]);
  });

  it('delete what was shared: positions gone from the buyer at once, the share stopped, the consent records kept', async () => {
    const phone = nextPhone();
    const a = await buyer('safety-erase', phone);
    expect((await answer(a.code, { action: 'share', minutes: 60, ...FIX })).status).toBe(200);
    const cookie = await enter(a.code);
    const res = await (await act(cookie, { action: 'erase', requestId: a.requestId })).json();
    expect(res.obj.deleted).toBeGreaterThanOrEqual(1);
    const trace = await (
      await call('GET', `/gpsTrace/phoneLocation/${a.requestId}`, { headers: { cookie: a.cookie } })
    ).json();
    expect(trace.obj).toMatchObject({ status: 'stopped', positions: [] });
    const db = await getDb();
    const records = await db.select().from(consents).where(eq(consents.requestId, a.requestId));
    expect(records.map((r) => r.decision).sort()).toEqual(['shared', 'stopped']);
    const item = (await (await overview(cookie)).json()).obj.requests[0];
    expect(item.erasedAt).not.toBeNull();
    expect(item.positions).toBe(0);
  });

  it('report: the consent page report flow, answering the reference', async () => {
    const phone = nextPhone();
    const a = await buyer('safety-report', phone);
    const cookie = await enter(a.code);
    const res = await (
      await act(cookie, { action: 'report', requestId: a.requestId, reason: 'I do not know them' })
    ).json();
    expect(res.obj.reference).toMatch(/^SR-/);
    const db = await getDb();
    const [record] = await db
      .select()
      .from(consents)
      .where(and(eq(consents.requestId, a.requestId), eq(consents.decision, 'reported')));
    expect(record.reason).toBe('I do not know them');
    const [row] = await db.select().from(locationRequests).where(eq(locationRequests.id, a.requestId));
    expect(row.status).toBe('reported');
    expect(await db.select().from(optOuts).where(eq(optOuts.phoneE164, phone))).toHaveLength(1);
    expect(
      (await act(cookie, { action: 'report', requestId: a.requestId, reason: 'see evil.example.com' })).status,
    ).toBe(422);
  });
});

describe('safety centre: entry by SMS code', () => {
  it('answers the same for a known and an unknown number, and texts a code only to a number we sent a consent SMS', async () => {
    const known = nextPhone();
    await buyer('safety-otp-known', known);
    const unknown = nextPhone();
    const a = await call('POST', '/safety/code', { body: { phone: known } });
    const b = await call('POST', '/safety/code', { body: { phone: unknown } });
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    expect(await a.json()).toEqual(await b.json());
    const db = await getDb();
    const sent = await db
      .select()
      .from(outboundMessages)
      .where(and(eq(outboundMessages.recipient, known), eq(outboundMessages.template, 'safety_code')));
    expect(sent).toHaveLength(1);
    expect(sent[0].body).toMatch(/\b\d{6}\b/);
    expect(
      await db
        .select()
        .from(outboundMessages)
        .where(and(eq(outboundMessages.recipient, unknown), eq(outboundMessages.template, 'safety_code'))),
    ).toEqual([]);
    const code = /\b(\d{6})\b/.exec(sent[0].body)![1];
    const res = await call('POST', '/safety/session', { body: { phone: known, code } });
    expect(res.status).toBe(200);
    const cookie = /safety_token=([^;]+)/.exec(res.headers.get('set-cookie') ?? '')![0];
    expect((await (await overview(cookie)).json()).obj.phone).toBe(known);
    // Used up.
    expect((await call('POST', '/safety/session', { body: { phone: known, code } })).status).toBe(422);
  });

  it('guessing from 40 clients at once gets 5 comparisons in all: even the right code fails afterwards', async () => {
    const phone = nextPhone();
    await buyer('safety-otp-guess', phone);
    expect((await call('POST', '/safety/code', { body: { phone } })).status).toBe(200);
    const db = await getDb();
    const [sms] = await db
      .select()
      .from(outboundMessages)
      .where(and(eq(outboundMessages.recipient, phone), eq(outboundMessages.template, 'safety_code')));
    const right = /\b(\d{6})\b/.exec(sms.body)![1];
    const wrong = (n: number) => String((Number(right) + 1 + n) % 1_000_000).padStart(6, '0');
    const guesses = await Promise.all(
      Array.from({ length: 40 }, (_, n) =>
        Promise.resolve(call('POST', '/safety/session', { body: { phone, code: wrong(n) }, ip: nextIp() })).then(
          (r) => r.status,
        ),
      ),
    );
    expect(guesses.every((s) => s === 422)).toBe(true);
    const [row] = await db.select().from(safetyCodes).where(eq(safetyCodes.phoneE164, phone));
    expect(row.attempts).toBe(5);
    expect((await call('POST', '/safety/session', { body: { phone, code: right } })).status).toBe(422);
  });
});

describe('cool-down after a decline', () => {
  it('the same buyer cannot ask the same number for 30 days after a decline and is told why; others can', async () => {
    const phone = nextPhone();
    const a = await buyer('safety-cool', phone);
    expect((await answer(a.code, { action: 'decline' })).status).toBe(200);
    const res = await askAgain(a.cookie, phone);
    expect(res.status).toBe(403);
    expect((await res.json()).msg).toBe(
      'The owner of this number declined your last request. You can ask this number again 30 days after that answer.',
    );
    // Another number is not affected; nor is another buyer.
    expect((await askAgain(a.cookie, nextPhone())).status).toBe(201);
    const other = await buyer('safety-cool-other', phone, OTHER_NAME);
    expect(other.requestId).not.toBe(a.requestId);
    // 31 days later the decline no longer holds the buyer back (the guard itself, on a clock 31 days ahead).
    const db = await getDb();
    expect(await ownerRefusal(db, phone, { account: a.userId })).toBe('cooling_down');
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 31 * 24 * 3600_000 });
    try {
      expect(await ownerRefusal(db, phone, { account: a.userId })).toBeNull();
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("buyer-side signals: consent SMS held for an operator's review", () => {
  /** The outbox row of request `requestId`'s consent SMS. */
  async function smsOf(requestId: string) {
    const db = await getDb();
    const [row] = await db.select().from(outboundMessages).where(eq(outboundMessages.locationRequestId, requestId));
    return row;
  }

  it('a buyer asking a fifth number in a day has that SMS held, with the reason, in the console', async () => {
    const a = await buyer('signal-many', nextPhone());
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await askAgain(a.cookie, nextPhone());
      expect(res.status).toBe(201);
      ids.push((await res.json()).obj.id);
    }
    for (const id of ids.slice(0, 3)) expect((await smsOf(id)).lastError).toBeNull();
    const held = await smsOf(ids[3]);
    expect(held).toMatchObject({ status: 'queued', lastError: 'held for review: many_numbers' });
    expect(held.nextAttemptAt!.getUTCFullYear()).toBe(9999);
    const db = await getDb();
    expect(await dueOutboxIds(db, new Date(Date.now() + 7 * 24 * 3600_000), 100_000)).not.toContain(held.id);
    expect((await undeliveredMessages(db)).map((m) => m.id)).toContain(held.id);
  });

  it('a buyer whose answered requests were mostly declined has the next SMS held', async () => {
    const a = await buyer('signal-refused', nextPhone());
    expect((await answer(a.code, { action: 'decline' })).status).toBe(200);
    for (let i = 0; i < 2; i++) {
      const res = await askAgain(a.cookie, nextPhone());
      const { link } = (await res.json()).obj;
      const code = new URL(link).searchParams.get('c')!;
      expect((await answer(code, { action: 'decline' })).status).toBe(200);
    }
    const res = await askAgain(a.cookie, nextPhone());
    expect(res.status).toBe(201);
    expect(await smsOf((await res.json()).obj.id)).toMatchObject({ lastError: 'held for review: mostly_refused' });
  });
});

describe('safety centre: retention', () => {
  it('the daily run deletes ended sessions and codes, and keeps live ones', async () => {
    const phone = nextPhone();
    const a = await buyer('safety-prune', phone);
    const live = await enter(a.code);
    const ended = await enter(a.code);
    const db = await getDb();
    await db
      .update(safetySessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(safetySessions.tokenHash, sha256(ended.split('=')[1])));
    expect((await call('POST', '/safety/code', { body: { phone } })).status).toBe(200);
    await db
      .update(safetyCodes)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(safetyCodes.phoneE164, phone));
    const pruned = await pruneSafety(db);
    expect(pruned.sessions).toBeGreaterThanOrEqual(1);
    expect(pruned.codes).toBeGreaterThanOrEqual(1);
    expect(await db.select().from(safetyCodes).where(eq(safetyCodes.phoneE164, phone))).toEqual([]);
    expect((await overview(live)).status).toBe(200);
  });
});

/** The code SMS sent to `phone`, oldest first. */
async function codeSmsOf(phone: string) {
  const db = await getDb();
  const rows = await db
    .select()
    .from(outboundMessages)
    .where(and(eq(outboundMessages.recipient, phone), eq(outboundMessages.template, 'safety_code')));
  return rows.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
}

/** The 6 digits of a code SMS. */
const digitsOf = (body: string) => /\b(\d{6})\b/.exec(body)![1];

/** Asks a code for `phone` from client address `ip`, with `headers` (a safety cookie) and extra body fields. */
function askCode(phone: string, ip: string, extra: Record<string, string> = {}, headers: Record<string, string> = {}) {
  return call('POST', '/safety/code', { body: { phone, ...extra }, ip, headers });
}

describe('safety centre: code limits no stranger can spend for the owner', () => {
  it('a stranger asking from one address is stopped with a wait in words; the owner elsewhere still gets the code', async () => {
    const phone = nextPhone();
    await buyer('safety-lockout', phone);
    const stranger = nextIp();
    const statuses: number[] = [];
    let refusal = '';
    for (let i = 0; i < 5; i++) {
      const res = await askCode(phone, stranger);
      statuses.push(res.status);
      if (res.status === 429) refusal = (await res.json()).msg;
    }
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    expect(refusal).toMatch(/^Too many codes were asked for\. Please try again in about (an hour|\d+ hours)\./);
    expect(refusal).not.toMatch(/seconds/);
    // The stranger's three asks sent one code three times; the owner, from their own address, gets that same code.
    const owner = nextIp();
    expect((await askCode(phone, owner)).status).toBe(200);
    const sent = await codeSmsOf(phone);
    expect(sent).toHaveLength(4);
    expect(new Set(sent.map((m) => digitsOf(m.body))).size).toBe(1);
    const res = await call('POST', '/safety/session', { body: { phone, code: digitsOf(sent[3].body) }, ip: owner });
    expect(res.status).toBe(200);
  });

  it('asking again while the code works sends the same code; once its tries are spent a new one is drawn', async () => {
    const phone = nextPhone();
    await buyer('safety-resend', phone);
    expect((await askCode(phone, nextIp())).status).toBe(200);
    expect((await askCode(phone, nextIp())).status).toBe(200);
    const [first, second] = await codeSmsOf(phone);
    expect(digitsOf(second.body)).toBe(digitsOf(first.body));
    const right = digitsOf(first.body);
    const wrong = String((Number(right) + 1) % 1_000_000).padStart(6, '0');
    for (let i = 0; i < 5; i++)
      expect((await call('POST', '/safety/session', { body: { phone, code: wrong } })).status).toBe(422);
    expect((await askCode(phone, nextIp())).status).toBe(200);
    const third = (await codeSmsOf(phone))[2];
    const fresh = digitsOf(third.body);
    // A new code with fresh tries (a new draw may, once in a million, repeat the digits).
    const db = await getDb();
    const [row] = await db.select().from(safetyCodes).where(eq(safetyCodes.phoneE164, phone));
    expect(row.attempts).toBe(0);
    expect((await call('POST', '/safety/session', { body: { phone, code: fresh } })).status).toBe(200);
  });

  it('30 asks at once from one address: 3 pass; 40 at once from 40 addresses: the ceiling of 10 holds, one code', async () => {
    const phone = nextPhone();
    await buyer('safety-burst', phone);
    const one = nextIp();
    const burst = await Promise.all(
      Array.from({ length: 30 }, () => Promise.resolve(askCode(phone, one)).then((r) => r.status)),
    );
    expect(burst.filter((s) => s === 200)).toHaveLength(3);
    expect(burst.filter((s) => s === 429)).toHaveLength(27);
    const spread = await Promise.all(
      Array.from({ length: 40 }, () => Promise.resolve(askCode(phone, nextIp())).then((r) => r.status)),
    );
    expect(spread.filter((s) => s === 200)).toHaveLength(7);
    expect(spread.filter((s) => s === 429)).toHaveLength(33);
    const sent = await codeSmsOf(phone);
    expect(sent).toHaveLength(10);
    expect(new Set(sent.map((m) => digitsOf(m.body))).size).toBe(1);
    const db = await getDb();
    expect(await db.select().from(safetyCodes).where(eq(safetyCodes.phoneE164, phone))).toHaveLength(1);
  });

  it("requesters filling the number's consent-SMS cap do not stop the owner's code, and codes do not fill it", async () => {
    const phone = nextPhone();
    const settings = env();
    const cap = settings.SMS_MAX_PER_TARGET_PER_DAY;
    try {
      settings.SMS_MAX_PER_TARGET_PER_DAY = 2;
      const a = await buyer('safety-cap-a', phone);
      await buyer('safety-cap-b', phone);
      expect((await askCode(phone, nextIp())).status).toBe(200);
      expect(await codeSmsOf(phone)).toHaveLength(1);
      settings.SMS_MAX_PER_TARGET_PER_DAY = 3;
      // Two consent SMS and one code: the third consent SMS still fits.
      expect((await askAgain(a.cookie, phone)).status).toBe(201);
    } finally {
      settings.SMS_MAX_PER_TARGET_PER_DAY = cap;
    }
  });

  it('a number on the opt-out list gets no code, unless asked from a session of its own consent link', async () => {
    const phone = nextPhone();
    const a = await buyer('safety-optout-code', phone);
    expect((await answer(a.code, { action: 'report' })).status).toBe(200);
    expect((await askCode(phone, nextIp())).status).toBe(200);
    expect(await codeSmsOf(phone)).toEqual([]);
    const viaLink = await enter(a.code);
    expect((await askCode(phone, nextIp(), {}, { cookie: viaLink })).status).toBe(200);
    expect(await codeSmsOf(phone)).toHaveLength(1);
  });

  it('an ask runs the same statements whether or not the number has requests', async () => {
    const known = nextPhone();
    await buyer('safety-same-work', known);
    await getBoss();
    /** The SQL statements the app sends while `run` runs (pg-boss's own left out). */
    const statementsOf = async (run: () => unknown) => {
      const spy = vi.spyOn(Client.prototype, 'query');
      try {
        await run();
        return spy.mock.calls
          .map(([q]) => (typeof q === 'string' ? q : (q as { text: string }).text))
          .filter((text) => !/pgboss/i.test(text));
      } finally {
        spy.mockRestore();
      }
    };
    const forKnown = await statementsOf(() => askCode(known, nextIp()));
    const forUnknown = await statementsOf(() => askCode(nextPhone(), nextIp()));
    expect(forKnown.length).toBeGreaterThan(3);
    expect(forUnknown).toEqual(forKnown);
    expect(await codeSmsOf(known)).toHaveLength(1);
  });
});

describe('safety centre: the owner’s language and number format', () => {
  /** A Philippine mobile number no other test uses: E.164 and as a Filipino types it. */
  function philippineNumber() {
    const line = String(Math.floor(Math.random() * 10_000_000)).padStart(7, '0');
    return { e164: `+63917${line}`, national: `0917 ${line.slice(0, 3)} ${line.slice(3)}` };
  }

  it('/ph/ reads a national number as Philippine, for the code and the entry', async () => {
    const { e164, national } = philippineNumber();
    await buyer('safety-ph', e164);
    expect((await askCode(national, nextIp(), { locale: 'en-PH' })).status).toBe(200);
    const [sms] = await codeSmsOf(e164);
    const res = await call('POST', '/safety/session', {
      body: { phone: national, locale: 'en-PH', code: digitsOf(sms.body) },
    });
    expect(res.status).toBe(200);
    // Without a country the national number is refused with the localized phone message, never a generic one.
    const refused = await askCode(national, nextIp());
    expect(refused.status).toBe(400);
    expect((await refused.json()).msg).toMatch(/country code/);
  });

  it("the code SMS is in the page's language (body locale, else Accept-Language)", async () => {
    const phone = nextPhone();
    await buyer('safety-es', phone);
    const res = await call('POST', '/safety/code', { body: { phone }, headers: { 'accept-language': 'es' } });
    expect(res.status).toBe(200);
    const [sms] = await codeSmsOf(phone);
    expect(sms.body).toMatch(/tu código para ver las solicitudes de ubicación/);
    expect(sms.locale).toBe('es');
    expect(JSON.stringify(sms.redacted)).toContain('[code]');
  });

  it('a code that is not 6 digits is refused with a clear, localized message', async () => {
    const phone = nextPhone();
    const msgOf = async (code: string, lang = 'en') =>
      (
        await (
          await call('POST', '/safety/session', { body: { phone, code }, headers: { 'accept-language': lang } })
        ).json()
      ).msg;
    expect(await msgOf('')).toBe('Please input a code');
    expect(await msgOf('12a456')).toBe('Must be a number');
    expect(await msgOf('123')).toBe('The code has 6 digits');
    expect(await msgOf('')).not.toMatch(/value of/);
    expect(await msgOf('', 'es')).not.toBe('Please input a code');
  });
});

describe('safety centre: what a consent-link session may do', () => {
  it('cannot block everyone (403, nothing on the list) but blocks its own requester; a code session can', async () => {
    const phone = nextPhone();
    const a = await buyer('safety-link-optout', phone);
    const other = await buyer('safety-link-optout-other', phone, OTHER_NAME);
    const viaLink = await enter(a.code);
    const seen = (await (await overview(viaLink)).json()).obj;
    expect(seen).toMatchObject({ canBlockEveryone: false, canUndoBlocks: false });
    const refused = await act(viaLink, { action: 'block_all' });
    expect(refused.status).toBe(403);
    expect((await refused.json()).msg).toBe(
      'Blocking everyone needs a code sent by SMS to this number: open this page with one.',
    );
    const db = await getDb();
    expect(await db.select().from(optOuts).where(eq(optOuts.phoneE164, phone))).toEqual([]);
    expect((await askAgain(other.cookie, phone, OTHER_NAME)).status).toBe(201);
    expect((await act(viaLink, { action: 'block', requestId: a.requestId })).status).toBe(200);
    const bySms = await enterBySms(phone);
    expect((await (await overview(bySms)).json()).obj.canBlockEveryone).toBe(true);
    expect((await act(bySms, { action: 'block_all' })).status).toBe(200);
  });
});
