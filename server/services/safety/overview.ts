import 'server-only';
import { randomInt } from 'node:crypto';
import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import {
  consents,
  locationRequests,
  optOuts,
  positions,
  requestErasures,
  requestReferences,
  requestViews,
  requesterBlocks,
  users,
} from '../../db/schema';
import { LIVE_STATES, OPEN_STATES } from '../../../lib/request-machine';
import type { E164 } from '../../../lib/contracts/phone';
import type { SafetyRequest } from '../../../lib/contracts/safety';
import { env } from '../../env';
import { settleByClock } from '../locate';
import { CROCKFORD_ALPHABET, maskEmail } from '../tokens';

// What the safety centre shows: every request to the number, with its reference, requester, state and history.

/** A new request reference such as `SR-7K4M-2Q` (Crockford base32, like order references). */
function newReference(): string {
  let body = '';
  for (let i = 0; i < 6; i++) body += CROCKFORD_ALPHABET[randomInt(CROCKFORD_ALPHABET.length)];
  return `SR-${body.slice(0, 4)}-${body.slice(4)}`;
}

/** Gives each of `ids` without a reference one (unique; a taken one is drawn again) and returns id → reference. */
export async function referencesOf(db: Db, ids: string[]): Promise<Map<string, string>> {
  const read = async () =>
    new Map(
      (
        await db
          .select()
          .from(requestReferences)
          .where(inArray(requestReferences.requestId, ids.length ? ids : ['00000000-0000-0000-0000-000000000000']))
      ).map((r) => [r.requestId, r.reference]),
    );
  let found = await read();
  for (let round = 0; round < 4 && ids.some((id) => !found.has(id)); round++) {
    const missing = ids.filter((id) => !found.has(id));
    await db
      .insert(requestReferences)
      .values(missing.map((requestId) => ({ requestId, reference: newReference() })))
      .onConflictDoNothing();
    found = await read();
  }
  return found;
}

/**
 * Total sharing time from a request's consent records (oldest first) at `now`, ms: each share (`shared`,
 * `shared_again`) runs for the duration chosen plus the minutes the owner added while it ran (`extended`), cut short
 * by the next record that is not an extension (a stop, a report) and by `now`.
 */
export function sharedDuration(
  records: { decision: string; createdAt: Date; durationMinutes: number | null }[],
  now: Date,
): number {
  let total = 0;
  records.forEach((r, i) => {
    if (r.decision !== 'shared' && r.decision !== 'shared_again') return;
    const start = r.createdAt.getTime();
    let planned = start + (r.durationMinutes ?? 0) * 60_000;
    let cut = now.getTime();
    for (const later of records.slice(i + 1)) {
      if (later.decision !== 'extended') {
        cut = Math.min(cut, later.createdAt.getTime());
        break;
      }
      planned += (later.durationMinutes ?? 0) * 60_000;
    }
    total += Math.max(0, Math.min(planned, cut) - start);
  });
  return total;
}

/**
 * Everything the safety centre of `e164` shows, newest request first: every request to that number (never another
 * number's), each with its reference, who asked (name and masked e-mail), when, the note, its state (lib/request-machine.ts,
 * brought up to the clock), how long it shared, the requester's map openings during a share, what is still visible to
 * the requester, the owner's deletion and block; and whether the number is on the opt-out list (`optedOut`, with
 * `undoable` false when an operator put it there).
 */
export async function safetyOverview(db: Db, e164: E164, now = new Date(), requesterId: string | null = null) {
  const scope = and(eq(locationRequests.targetE164, e164), onlyOf(requesterId));
  const open = await db
    .select({ id: locationRequests.id })
    .from(locationRequests)
    .where(and(scope, inArray(locationRequests.status, [...OPEN_STATES, ...LIVE_STATES])));
  for (const r of open) await settleByClock(db, r.id, now);
  const rows = await db
    .select({
      id: locationRequests.id,
      userId: locationRequests.userId,
      requesterName: locationRequests.requesterName,
      email: users.email,
      createdAt: locationRequests.createdAt,
      note: locationRequests.note,
      state: locationRequests.status,
      positions: sql<number>`(select count(*)::int from ${positions} p where p.request_id = ${locationRequests.id})`,
      erasedAt: requestErasures.erasedAt,
    })
    .from(locationRequests)
    .innerJoin(users, eq(users.id, locationRequests.userId))
    .leftJoin(requestErasures, eq(requestErasures.requestId, locationRequests.id))
    .where(scope)
    .orderBy(desc(locationRequests.createdAt), desc(locationRequests.id))
    .limit(200);
  const ids = rows.map((r) => r.id);
  const none = ['00000000-0000-0000-0000-000000000000'];
  const [refs, records, views, blocks, [optedOut]] = await Promise.all([
    referencesOf(db, ids),
    db
      .select()
      .from(consents)
      .where(inArray(consents.requestId, ids.length ? ids : none))
      .orderBy(asc(consents.createdAt), asc(consents.id)),
    db
      .select()
      .from(requestViews)
      .where(inArray(requestViews.requestId, ids.length ? ids : none))
      .orderBy(desc(requestViews.viewedAt)),
    db.select({ userId: requesterBlocks.userId }).from(requesterBlocks).where(eq(requesterBlocks.phoneE164, e164)),
    db.select().from(optOuts).where(eq(optOuts.phoneE164, e164)).limit(1),
  ]);
  const blocked = new Set(blocks.map((b) => b.userId));
  const requests: SafetyRequest[] = rows.map((r) => {
    const mine = views.filter((v) => v.requestId === r.id);
    return {
      id: r.id,
      reference: refs.get(r.id) ?? '',
      requesterName: r.requesterName,
      requester: maskEmail(r.email),
      createdAt: r.createdAt.toISOString(),
      note: r.note,
      state: r.state,
      sharedMs: sharedDuration(
        records.filter((c) => c.requestId === r.id),
        now,
      ),
      views: mine.slice(0, 50).map((v) => v.viewedAt.toISOString()),
      viewCount: mine.length,
      positions: r.positions,
      erasedAt: r.erasedAt?.toISOString() ?? null,
      blocked: blocked.has(r.userId),
    };
  });
  return {
    phone: e164,
    requests,
    optedOut: !!optedOut,
    undoable: !!optedOut && optedOut.reason !== 'operator',
    consentRetentionDays: env().CONSENT_RETENTION_DAYS,
  };
}

/** A `link` session's scope: the requests of `requesterId` only; no condition for the whole centre (null). */
export function onlyOf(requesterId: string | null) {
  return requesterId ? eq(locationRequests.userId, requesterId) : undefined;
}
