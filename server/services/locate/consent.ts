import 'server-only';
import { and, count, countDistinct, desc, eq } from 'drizzle-orm';
import { answeredByRequester } from './requester-marks';
import { liveBroker } from './live-broker';
import type { Db, Tx } from '../../db/client';
import { FUNNEL } from '../../../lib/tracking/funnel';
import { consents, locationRequests, users, type LocationRequest } from '../../db/schema';
import { isLive, next, refusal } from '../../../lib/request-machine';
import { recordRequestEvent } from '../events';
import { applyEvent, settleByClock } from './request-transitions';
import { lookupIp } from '../geoip';
import { alertBuyer, alertFor } from './buyer-alerts';
import { optOut } from '../messaging';
import { maskEmail, sha256 } from '../tokens';
import { SHARE_PRESETS, type ConsentView, type RequesterFacts } from '../../../lib/contracts/consent';
import { answerMoreTime, type MoreTimeAction, type ShareNews } from './more-time';
import { recordShare } from './consent-share';
import { approximateShare } from './share-precision';
import type { SharePrecision } from '../../../lib/contracts/consent';

// The phone owner's side of a location request, reached with the consent code of the SMS link (docs/rules.md#the-product,
// #security): what the page shows and what the owner decides. What the page sends while sharing is owner-signals.ts.

/** Sharing durations the owner may choose (minutes); default 60 (the contract's, lib/contracts/consent.ts). */
export { SHARE_PRESETS };

/** A browser position: degrees (WGS 84) and the accuracy radius in metres (Geolocation API `coords`). */
export type Fix = { latitude: number; longitude: number; accuracy: number };

/**
 * The request of consent code `code` (looked up by its SHA-256, the only form stored) with its buyer's e-mail and
 * account creation time; null for an unknown code. The caller answers an unknown code as a guess (consent-guard.ts).
 */
export async function byConsentCode(db: Db, code: string) {
  const [row] = await db
    .select({ request: locationRequests, buyerEmail: users.email, buyerSince: users.createdAt })
    .from(locationRequests)
    .innerJoin(users, eq(users.id, locationRequests.userId))
    .where(eq(locationRequests.consentCodeHash, sha256(code)))
    .limit(1);
  return row ?? null;
}

/**
 * What we know of the account that asks, shown to the owner beside the requester's name (`RequesterFacts`): whether
 * the account `userId`, created at `createdAt`, is less than 24 hours old at `now` (the page says "created today"),
 * the month it was created (`YYYY-MM`, UTC), how many location requests it has made in all (the one shown included),
 * and how many of them their owners reported as abuse (each request counted once). Only these counts and the month:
 * no other data of the buyer reaches the owner.
 */
export async function requesterFacts(
  db: Db | Tx,
  userId: string,
  createdAt: Date,
  now = new Date(),
): Promise<RequesterFacts> {
  const [[made], [reports]] = await Promise.all([
    db.select({ n: count() }).from(locationRequests).where(eq(locationRequests.userId, userId)),
    db
      .select({ n: countDistinct(consents.requestId) })
      .from(consents)
      .innerJoin(locationRequests, eq(locationRequests.id, consents.requestId))
      .where(and(eq(locationRequests.userId, userId), eq(consents.decision, 'reported'))),
  ]);
  return {
    newAccount: now.getTime() - createdAt.getTime() < 24 * 3600_000,
    since: createdAt.toISOString().slice(0, 7),
    requests: made.n,
    reported: reports.n,
  };
}

/**
 * What the consent page shows for `code`: who asks (the requester name the buyer gave and their
 * masked e-mail), what we know of their account (`facts`, see `requesterFacts`), the status, the link's expiry and
 * the sharing window's end, whether the request was withdrawn (the buyer's subscription ended),
 * whether the browser refused the location last time, and how the last sharing ended (`ended`: `owner` when the
 * owner stopped or reported, `time` when the chosen duration ran out, null otherwise) with `reported` when the owner
 * reported the request. The first view moves the request to `opened`.
 * Null for an unknown code.
 */
export async function consentView(db: Db, code: string): Promise<Omit<ConsentView, 'product' | 'presets'> | null> {
  const row = await byConsentCode(db, code);
  if (!row) return null;
  let status = (await settleByClock(db, row.request.id, new Date(), row.request)) ?? row.request.status;
  if (next(status, 'link_opened')) {
    await db.transaction(async (tx) => {
      const moved = await applyEvent(tx, row.request.id, 'link_opened');
      if (moved) await recordRequestEvent(tx, FUNNEL.consentOpened, row.request.id);
    });
    status = 'opened';
  }
  const [last] = await db
    .select({ decision: consents.decision })
    .from(consents)
    .where(eq(consents.requestId, row.request.id))
    .orderBy(desc(consents.createdAt))
    .limit(1);
  const reported = last?.decision === 'reported';
  return {
    requester: maskEmail(row.buyerEmail),
    requesterName: row.request.requesterName,
    facts: await requesterFacts(db, row.request.userId, row.buyerSince),
    note: row.request.note,
    status,
    reported,
    ended: status === 'stopped' ? (last?.decision === 'stopped' ? 'owner' : 'time') : null,
    withdrawn: status === 'withdrawn',
    locationDenied: row.request.locationDeniedAt !== null,
    expiresAt: row.request.expiresAt.toISOString(),
    sharingUntil: row.request.sharingUntil?.toISOString() ?? null,
    moreTimeAsked: isLive(status) && row.request.moreTimeAsk === 'asked',
    precision: row.request.precision,
  };
}

/**
 * Who answered, and the text they were shown (built from the requester's name, masked e-mail and note, hashed into
 * the record).
 */
export type ConsentMeta = {
  ip: string | null;
  userAgent: string | null;
  /**
   * The account the answering browser is signed in as, and its browser key (its `offer_browser` cookie), when any:
   * an answer from the request's buyer, their browser or their address is recorded with `requester_side`
   * (services/locate/requester-marks.ts `answeredByRequester`).
   */
  sessionUserId?: string | null;
  browserKey?: string | null;
  shownText: (requester: { name: string | null; email: string; note: string | null }) => string;
};

/**
 * What an answer of the owner did: the request's new state (with the share's end and a pending ask for more time,
 * where the page needs them), or why it was refused.
 */
export type AnswerResult =
  | ({ status: LocationRequest['status'] } & Partial<Omit<ShareNews, 'status'>>)
  | { error: 'not_found' | 'expired' | 'withdrawn' | 'answered' | 'not_sharing' };

export type ConsentAction =
  | { action: 'share'; minutes: number; fix: Fix; precision: SharePrecision }
  | { action: 'approximate' }
  | { action: 'denied' }
  | { action: 'decline' }
  | { action: 'stop' }
  | { action: 'report'; reason?: string | null }
  | MoreTimeAction;

/**
 * The owner's answer through the consent link (docs/rules.md#data, #security), in one transaction with the request row locked,
 * so the same answer sent many times at once is recorded once. Every decision is its own append-only consent record
 * (UTC time, IP, user agent, SHA-256 of the text shown):
 * - `share`: sent only after the browser gave its first fix, which it carries. Records the consent
 *   (`shared`, or `shared_again` after a stop) with the duration and the precision chosen (an approximate share
 *   stores the fix's area cell, never the point), opens the window of `minutes`, and stores that fix
 *   together with the IP-based area. Every share alerts the buyer (services/locate/buyer-alerts.ts: a push, or by
 * default an
 *   e-mail with a link to the map). Refused (`withdrawn`) when
 *   the buyer no longer has access;
 * - `denied`: the browser refused or could not give a position: nothing is stored, no consent is recorded, the
 *   request keeps its status and is marked so the buyer sees "location not allowed";
 * - `decline`: records the refusal and alerts the buyer; nothing about the phone's position is stored;
 * - `stop`: ends sharing (recorded) and alerts the buyer; the owner may share again;
 * - `approximate`: a running exact share sends only approximate areas from now on (services/locate/share-precision.ts;
 *   recorded as `approximated`); the way back to exact is a new share;
 * - `extend`, `keep_end`: more time for a running share, or no to the requester's ask (services/locate/more-time.ts
 *   `answerMoreTime`: the end moves at most to MAX_SHARE_MINUTES from now; the extension is its own consent record);
 * - `report`: puts the number on the opt-out list (no more SMS to it; not when sent signed in as the request's buyer or
 *   from the browser the request was made from, who holds the same link) and ends the request (recorded, with the
 *   owner's optional `reason`, already checked and normalized by the route: plain text, at most 140 characters). Taken
 *   in every state, after a Decline or once the link expired too: an owner may report a request they already refused.
 * Returns the new status, or the reason it was refused. The buyer's alert it writes is announced by the outbox.
 */
export async function answerConsent(
  db: Db,
  code: string,
  action: ConsentAction,
  meta: ConsentMeta,
): Promise<AnswerResult> {
  const found = await byConsentCode(db, code);
  if (!found) return { error: 'not_found' };
  await settleByClock(db, found.request.id);
  const ipLocation = action.action === 'share' && meta.ip ? await lookupIp(meta.ip) : null;
  const announced: { requestId: string; positionId: number }[] = [];
  const result = await db.transaction(async (tx): Promise<AnswerResult> => {
    const [request] = await tx
      .select()
      .from(locationRequests)
      .where(eq(locationRequests.id, found.request.id))
      .for('update');
    const { id, status } = request;
    const { requesterSide, record } = await consentRecorder(tx, request, found.buyerEmail, meta);

    if (action.action === 'extend' || action.action === 'keep_end') return answerMoreTime(tx, request, action, record);
    if (action.action === 'approximate') return approximateShare(tx, request, record);
    if (action.action === 'report') return answerReport(tx, request, action.reason ?? null, requesterSide, record);
    const event = action.action === 'decline' ? 'declined' : action.action === 'stop' ? 'stopped_by_owner' : 'shared';
    const refused = refusal(status, event);
    if (refused) return { error: refused };
    if (action.action === 'denied') {
      if (isLive(status)) return { status };
      await tx.update(locationRequests).set({ locationDeniedAt: new Date() }).where(eq(locationRequests.id, id));
      return { status };
    }
    if (action.action === 'decline') {
      if (status === 'declined') return { status };
      await record('declined');
      const declined = (await applyEvent(tx, id, 'declined'))!;
      await alertBuyer(tx, request, 'declined');
      return { status: declined };
    }
    if (action.action === 'stop') {
      if (status === 'stopped') return { status };
      await record('stopped');
      const stopped = (await applyEvent(tx, id, 'stopped_by_owner', { sharingUntil: new Date() }))!;
      await alertBuyer(tx, request, 'stopped');
      return { status: stopped };
    }
    if (isLive(status)) return { status: (await applyEvent(tx, id, 'page_visible')) ?? status };
    const shared = await recordShare(tx, request, action, record, ipLocation);
    if ('error' in shared) return shared;
    announced.push({ requestId: id, positionId: shared.positionId });
    return { status: shared.status };
  });
  // Committed: the live broker tells the buyers' open maps of the share's positions (services/locate/live-broker.ts).
  for (const a of announced) liveBroker().announce(a.requestId, a.positionId);
  return result;
}

/** Whether the request's own buyer sent an answer, and how they were known (requester-marks.ts). */
type RequesterSide = Awaited<ReturnType<typeof answeredByRequester>>;

/**
 * How one answer of `request` (in `tx`) writes its consent records: `record(decision, extra)` appends a `consents`
 * row with the answer's IP, user agent, the SHA-256 of the text shown (`meta.shownText` with the requester's name,
 * `buyerEmail` masked and the note) and whether the request's own buyer answered (`requesterSide`,
 * services/locate/requester-marks.ts `answeredByRequester`), which is returned too.
 */
async function consentRecorder(tx: Tx, request: LocationRequest, buyerEmail: string, meta: ConsentMeta) {
  const textHash = sha256(
    meta.shownText({ name: request.requesterName, email: maskEmail(buyerEmail), note: request.note }),
  );
  const requesterSide: RequesterSide = await answeredByRequester(tx, request, {
    sessionUserId: meta.sessionUserId ?? null,
    browserKey: meta.browserKey ?? null,
    ip: meta.ip,
  });
  const base = {
    requestId: request.id,
    targetE164: request.targetE164,
    ip: meta.ip,
    userAgent: meta.userAgent,
    textHash,
    requesterSide,
  };
  const record = (
    decision: (typeof consents.$inferInsert)['decision'],
    extra: { durationMinutes?: number; reason?: string | null; precision?: SharePrecision } = {},
  ) => tx.insert(consents).values({ ...base, decision, ...extra });
  return { requesterSide, record };
}

/**
 * The owner's report of `request` (any state): the number goes on the opt-out list unless the request's buyer sent it
 * (`requesterSide` `session` or `device`), the `reported` record keeps the optional `reason`, the request ends, and the
 * buyer reads it as a decline, or a stop when it ended a share (never as a report). Returns the new status.
 */
async function answerReport(
  tx: Tx,
  request: LocationRequest,
  reason: string | null,
  requesterSide: RequesterSide,
  record: Awaited<ReturnType<typeof consentRecorder>>['record'],
): Promise<AnswerResult> {
  const { id, status } = request;
  // The requester holds the same link: a "report" from their session or browser is recorded, but only the owner's
  // puts the number on the opt-out list for every requester (an address alone may be the family's shared one).
  if (requesterSide !== 'session' && requesterSide !== 'device') await optOut(tx, request.targetE164, 'report', id);
  await record('reported', { reason });
  const reported = await applyEvent(tx, id, 'reported', { sharingUntil: null });
  // The buyer reads a report as a decline, or a stop when it ended a share (never as a report).
  const kind = reported ? alertFor(reported, isLive(status)) : null;
  if (kind) await alertBuyer(tx, request, kind);
  return { status: reported ?? status };
}
