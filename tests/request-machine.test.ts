import type { E164 } from '@/lib/contracts/phone';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { getDb } from '@/server/db/client';
import { consents, locationRequests, optOuts, outboundMessages, positions } from '@/server/db/schema';
import {
  REQUEST_EVENTS,
  REQUEST_STATES,
  TRANSITIONS,
  buyerState,
  next,
  refusal,
  type RequestEvent,
  type RequestState,
} from '@/lib/request-machine';
import { applyEvent, runLocateMaintenance, settleByClock } from '@/server/services/locate';
import { ErrorCode } from '@/server/api/errors';
import { call, uniqueEmail } from './support/accounts';
import { subscribe } from './support/billing';

// The location-request state machine (lib/request-machine.ts): the table itself, every pair of racing events applied
// through PostgreSQL, and the owner's racing answers through the API as the consent page sends them.

const FIX = { latitude: 52.52, longitude: 13.405, accuracy: 15 };

describe('the transition table', () => {
  it('reaches every state from queued', () => {
    const seen = new Set<RequestState>(['queued']);
    for (let grew = true; grew;) {
      grew = false;
      for (const s of [...seen])
        for (const e of REQUEST_EVENTS) {
          const to = next(s, e);
          if (to && !seen.has(to)) {
            seen.add(to);
            grew = true;
          }
        }
    }
    expect([...seen].sort()).toEqual([...REQUEST_STATES].sort());
  });

  it('lets nothing but a report move a final state, and nothing move a withdrawn one', () => {
    for (const s of ['declined', 'expired', 'reported'] as const)
      expect(REQUEST_EVENTS.filter((e) => next(s, e) && next(s, e) !== s)).toEqual(
        s === 'reported' ? [] : ['reported'],
      );
    expect(REQUEST_EVENTS.filter((e) => next('withdrawn', e))).toEqual([]);
  });

  it('accepts a share again after a stop, never after a decline, a report, an expiry or a withdrawal', () => {
    expect(next('stopped', 'shared')).toBe('sharing');
    for (const s of ['declined', 'reported', 'expired', 'withdrawn'] as const) expect(next(s, 'shared')).toBeNull();
    expect(refusal('expired', 'shared')).toBe('expired');
    expect(refusal('withdrawn', 'declined')).toBe('withdrawn');
    expect(refusal('reported', 'shared')).toBe('answered');
    expect(refusal('opened', 'stopped_by_owner')).toBe('not_sharing');
    // The same tap twice is not an error.
    expect(refusal('declined', 'declined')).toBeNull();
    expect(refusal('stopped', 'stopped_by_owner')).toBeNull();
    expect(refusal('paused', 'shared')).toBeNull();
  });

  it('never tells the buyer of a report or shows the internal withdrawn state', () => {
    for (const s of REQUEST_STATES)
      for (const shared of [false, true]) expect(['reported', 'withdrawn']).not.toContain(buyerState(s, shared));
    expect(buyerState('reported', false)).toBe('declined');
    expect(buyerState('reported', true)).toBe('stopped');
  });
});

/** A request row of a fresh paid trial, put in `state` directly (the races start from every state). */
async function requestIn(state: RequestState, userId: string, orderId: string) {
  const db = await getDb();
  const [row] = await db
    .insert(locationRequests)
    .values({
      userId,
      orderId,
      targetE164: '+14155550100' as E164,
      locale: 'en',
      consentCodeHash: `hash-${crypto.randomUUID()}`,
      smsText: 'test',
      status: state,
      expiresAt: new Date(Date.now() + 3600_000),
      sharingUntil: state === 'sharing' || state === 'paused' ? new Date(Date.now() + 3600_000) : null,
    })
    .returning({ id: locationRequests.id });
  return row.id;
}

/** The state after `events` one after the other, as the table says. */
const sequential = (from: RequestState, events: RequestEvent[]) =>
  events.reduce<RequestState>((s, e) => next(s, e) ?? s, from);

describe('every pair of racing events, applied as one conditional UPDATE each', () => {
  it('ends in the state of one of the two orders, from every state, for all 66 pairs', async () => {
    const bought = await subscribe(uniqueEmail('machine-pairs'));
    const db = await getDb();
    const [{ userId }] = await db
      .select({ userId: locationRequests.userId })
      .from(locationRequests)
      .where(eq(locationRequests.orderId, bought.order.id));
    const pairs: [RequestEvent, RequestEvent][] = [];
    REQUEST_EVENTS.forEach((a, i) => REQUEST_EVENTS.slice(i).forEach((b) => pairs.push([a, b])));
    expect(pairs).toHaveLength(66);
    let checked = 0;
    for (const from of REQUEST_STATES) {
      await Promise.all(
        pairs.map(async ([a, b]) => {
          const id = await requestIn(from, userId, bought.order.id);
          // Each in its own transaction on its own pooled connection, at once.
          const [ra, rb] = await Promise.all([
            db.transaction((tx) => applyEvent(tx, id, a)),
            db.transaction((tx) => applyEvent(tx, id, b)),
          ]);
          const [{ status }] = await db
            .select({ status: locationRequests.status })
            .from(locationRequests)
            .where(eq(locationRequests.id, id));
          expect([sequential(from, [a, b]), sequential(from, [b, a])], `${from}: ${a} ‖ ${b}`).toContain(status);
          // What each write reported is what the table allows at the moment it ran.
          if (ra) expect(TRANSITIONS[a].to).toBe(ra);
          if (rb) expect(TRANSITIONS[b].to).toBe(rb);
          if (!ra && !rb) expect(status).toBe(from);
          checked += 1;
        }),
      );
    }
    expect(checked).toBe(66 * REQUEST_STATES.length);
    await db.delete(locationRequests).where(eq(locationRequests.orderId, bought.order.id));
  });

  it('settles a link whose time ran out and a window that ended, once, under 30 concurrent readers', async () => {
    const bought = await subscribe(uniqueEmail('machine-clock'));
    const db = await getDb();
    const [{ id }] = await db
      .select({ id: locationRequests.id })
      .from(locationRequests)
      .where(eq(locationRequests.orderId, bought.order.id));
    await db
      .update(locationRequests)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(locationRequests.id, id));
    const seen = await Promise.all(Array.from({ length: 30 }, () => settleByClock(db, id)));
    expect(new Set(seen)).toEqual(new Set(['expired']));
    await db
      .update(locationRequests)
      .set({ status: 'paused', sharingUntil: sql`now() - interval '1 second'` })
      .where(eq(locationRequests.id, id));
    const [maintained, ...read] = await Promise.all([
      runLocateMaintenance(db, 30),
      ...Array.from({ length: 30 }, () => settleByClock(db, id)),
    ]);
    expect(new Set(read)).toEqual(new Set(['stopped']));
    expect(maintained.stopped).toBeLessThanOrEqual(1);
  });
});

/** A paid trial's first request, opened by its owner, with its consent code (read from the stored SMS). */
async function openedRequest(tag: string) {
  const bought = await subscribe(uniqueEmail(tag));
  const db = await getDb();
  const [request] = await db.select().from(locationRequests).where(eq(locationRequests.orderId, bought.order.id));
  const [sms] = await db.select().from(outboundMessages).where(eq(outboundMessages.locationRequestId, request.id));
  const code = /\?c=([A-Za-z0-9_-]+)/.exec(sms.body)![1];
  expect((await call('GET', `/spyContent/consent/${code}`)).status).toBe(200);
  return { ...bought, id: request.id, code, target: request.targetE164 };
}

const answer = (code: string, body: Record<string, string | number>) =>
  call('PUT', `/spyContent/phoneLocation/${code}`, { body, ip: '81.2.69.142' });

async function decisionsOf(id: string) {
  const db = await getDb();
  const rows = await db.select({ d: consents.decision }).from(consents).where(eq(consents.requestId, id));
  return rows.map((r) => r.d).sort();
}

async function statusOf(id: string) {
  const db = await getDb();
  const [row] = await db.select().from(locationRequests).where(eq(locationRequests.id, id));
  return row;
}

describe("the owner's racing answers through the API", () => {
  it('10 Shares and 10 Declines at once: one decision wins, recorded once, the other refused', async () => {
    const { id, code } = await openedRequest('race-share-decline');
    const replies = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        answer(code, i % 2 ? { action: 'decline' } : { action: 'share', minutes: 60, ...FIX }),
      ),
    );
    const row = await statusOf(id);
    expect(['sharing', 'declined']).toContain(row.status);
    const decisions = await decisionsOf(id);
    expect(decisions).toEqual([row.status === 'sharing' ? 'shared' : 'declined']);
    const refused = replies.filter((r) => r.status === 409).length;
    // Repeats of the winning answer succeed; every answer of the losing kind is refused.
    expect(refused).toBe(10);
  });

  it('Stop racing Share again and 20 positions: the last word is the state, no position after a stop', async () => {
    const { id, code } = await openedRequest('race-stop-share');
    expect((await answer(code, { action: 'share', minutes: 60, ...FIX })).status).toBe(200);
    await Promise.all([
      ...Array.from({ length: 10 }, () => answer(code, { action: 'stop' })),
      ...Array.from({ length: 20 }, () => answer(code, { action: 'position', ...FIX })),
    ]);
    const row = await statusOf(id);
    expect(row.status).toBe('stopped');
    const db = await getDb();
    const late = await db
      .select()
      .from(positions)
      .where(sql`${positions.requestId} = ${id} and ${positions.recordedAt} > ${row.sharingUntil}`);
    expect(late).toEqual([]);
    expect((await decisionsOf(id)).filter((d) => d === 'stopped')).toHaveLength(1);
  });

  it('a Report racing 10 Shares ends reported, the number opted out, and the buyer reads "declined" or "stopped"', async () => {
    const { id, code, target, cookie } = await openedRequest('race-report-share');
    await Promise.all([
      answer(code, { action: 'report' }),
      ...Array.from({ length: 10 }, () => answer(code, { action: 'share', minutes: 15, ...FIX })),
    ]);
    const row = await statusOf(id);
    expect(row.status).toBe('reported');
    const db = await getDb();
    expect(await db.select().from(optOuts).where(eq(optOuts.phoneE164, target))).toHaveLength(1);
    const list = await (await call('GET', '/spyContent', { headers: { cookie } })).json();
    const seen = list.page.list.find((r: { id: string }) => r.id === id);
    expect(seen.status).toBe(row.firstSharedAt ? 'stopped' : 'declined');
    // Sharing is refused from now on.
    expect((await answer(code, { action: 'share', minutes: 15, ...FIX })).status).toBe(409);
  });

  it('an expired link answers 410 with its own code, not a conflict', async () => {
    const { id, code } = await openedRequest('expired-410');
    const db = await getDb();
    await db
      .update(locationRequests)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(locationRequests.id, id));
    const res = await answer(code, { action: 'share', minutes: 15, ...FIX });
    expect(res.status).toBe(410);
    const body = await res.json();
    expect(body.code).toBe(ErrorCode.gone);
    expect((await statusOf(id)).status).toBe('expired');
  });
});
