import 'server-only';
import { and, eq, isNotNull, sql, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { orders, requesterMarks, type MarkKind } from '../../db/schema';
import { prototypeOf } from '../../../lib/validation/skeleton';
import type { E164 } from '../../../lib/contracts/phone';
import { clientKey } from '../client-ip';
import { sha256 } from '../tokens';

// The owner's protections hold for the person, not the account (docs/rules.md#consent; docs/decisions/
// 0018-owner-protections-follow-the-requester.md). A request carries its requester's marks: the account, the paying
// instrument, the browser, the address and the requester name's folded form. A block or a decline of one request
// reaches every later request to the same number that shares any one mark with it; the review signals count the
// answers of every request that shares a strong mark (account, payer, browser), and never an answer the requester gave.

/** What is known of who makes a request; each may be missing (a wallet has no card, a client may keep no cookie). */
export type RequesterMarks = {
  /** The buyer's account id, when known (null before payment for a visitor). */
  account?: string | null;
  /** The paying instrument's key (orders.payer_key). */
  payer?: string | null;
  /** The browser's key (SHA-256 of its `offer_browser` cookie). */
  device?: string | null;
  /** The client's address, or its `clientKey` (an IPv6 client's /64) as orders.client_key keeps it. */
  address?: string | null;
  /** The requester name as given (folded here with `foldName`). */
  name?: string | null;
};

/** A request's marks as stored (`storedMarks`), with its buyer's account: what a renewed link is checked with. */
export type StoredMarks = { account: string; rows: { kind: MarkKind; value: string }[] };

/** Marks a buyer cannot change at will: the review signals follow these only (an address or a name is shared). */
const STRONG: readonly MarkKind[] = ['account', 'payer', 'device'];

/**
 * The requester name's folded form: look-alikes replaced by their prototype (Unicode UTS #39 confusables, as the name
 * checks do), accents and case dropped, and everything but letters and digits removed, so "Ánna (your sister)",
 * "anna your sister" and "Аnna" (Cyrillic А) are the same name.
 */
export function foldName(name: string): string {
  let out = '';
  for (const char of name.normalize('NFKC')) out += prototypeOf(char);
  return out
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]/gu, '');
}

/** The key of a paying card: SHA-256 of `card:` and the provider's card fingerprint (Stripe's `card.fingerprint`). */
export function payerKeyOfCard(fingerprintOrNumber: string): string {
  return sha256(`card:${fingerprintOrNumber.replace(/\s+/g, '')}`);
}

/** The stored form of each known mark: `{ kind, value }` with value = SHA-256 of kind and raw value. */
export function markRows(marks: RequesterMarks): { kind: MarkKind; value: string }[] {
  const raw: [MarkKind, string | null | undefined][] = [
    ['account', marks.account],
    ['payer', marks.payer],
    ['device', marks.device],
    ['address', marks.address ? clientKey(marks.address) : null],
    ['name', marks.name ? foldName(marks.name) || null : null],
  ];
  return raw
    .filter((entry): entry is [MarkKind, string] => !!entry[1] && entry[1] !== 'unknown')
    .map(([kind, value]) => ({ kind, value: sha256(`${kind}:${value}`) }));
}

/** Records the marks of request `requestId` (once, with the request). */
export async function recordMarks(tx: Tx | Db, requestId: string, marks: RequesterMarks): Promise<void> {
  const rows = markRows(marks);
  if (rows.length) await tx.insert(requesterMarks).values(rows.map((r) => ({ requestId, ...r })));
}

/** The marks a request was made with, as `RequesterMarks`-shaped stored rows (for a link renewed later). */
export async function storedMarks(db: Db | Tx, requestId: string): Promise<{ kind: MarkKind; value: string }[]> {
  return db
    .select({ kind: requesterMarks.kind, value: requesterMarks.value })
    .from(requesterMarks)
    .where(eq(requesterMarks.requestId, requestId));
}

/** The payer key of `userId`'s newest paid order that has one (the card behind a subscription's New request). */
export async function payerKeyOf(db: Db | Tx, userId: string): Promise<string | null> {
  const [row] = await db
    .select({ payerKey: orders.payerKey })
    .from(orders)
    .where(and(eq(orders.userId, userId), isNotNull(orders.payerKey)))
    .orderBy(sql`${orders.paidAt} desc nulls last`)
    .limit(1);
  return row?.payerKey ?? null;
}

/** `(kind, value) in (…)` over `rows`, or false when there are none. */
function matchesAny(rows: { kind: MarkKind; value: string }[]): SQL {
  if (rows.length === 0) return sql`false`;
  return sql`(m.kind, m.value) in (${sql.join(
    rows.map((r) => sql`(${r.kind}, ${r.value})`),
    sql`, `,
  )})`;
}

/**
 * The earlier requests to `e164` by the same person: those of the account, and those sharing any mark with `rows`
 * (from the marks' index, then each request by its key). A SQL fragment selecting `id` and `user_id`.
 */
function sameRequester(e164: E164, account: string | null, rows: { kind: MarkKind; value: string }[]): SQL {
  return sql`select r.id, r.user_id from location_requests r
      where r.target_e164 = ${e164} and ${account ? sql`r.user_id = ${account}` : sql`false`}
    union
    select r.id, r.user_id from requester_marks m join location_requests r on r.id = m.request_id
      where ${matchesAny(rows)} and r.target_e164 = ${e164}`;
}

/**
 * What the owner of `e164` decided about this requester (docs/rules.md#consent): `blocked` when they blocked the
 * requester of any earlier request to this number made by the same person (its account, or any shared mark),
 * `cooling_down` when they declined one such request less than `cooldownDays` ago (a decline sent signed in as the
 * buyer or from the request's browser is the requester's own, and holds back no one); null otherwise. `marks` are the new
 * request's (`RequesterMarks`), or the stored rows of a request whose link is renewed.
 */
export async function ownerRefusalOf(
  db: Db | Tx,
  e164: E164,
  marks: RequesterMarks | StoredMarks,
  cooldownDays: number,
): Promise<'blocked' | 'cooling_down' | null> {
  const account = marks.account ?? null;
  const rows = 'rows' in marks ? marks.rows : markRows(marks);
  const since = new Date(Date.now() - cooldownDays * 86_400_000);
  const { rows: found } = await db.execute<{ blocked: boolean; declined: boolean }>(sql`
    with prior as (${sameRequester(e164, account, rows)})
    select
      exists (
        select 1 from requester_blocks b
        where b.phone_e164 = ${e164}
          and (b.user_id in (select user_id from prior) ${account ? sql`or b.user_id = ${account}` : sql``})
      ) as blocked,
      exists (
        select 1 from consents c join prior on prior.id = c.request_id
        where c.decision = 'declined' and c.created_at > ${since}
          and c.requester_side is distinct from 'session' and c.requester_side is distinct from 'device'
      ) as declined`);
  if (found[0]?.blocked) return 'blocked';
  return found[0]?.declined ? 'cooling_down' : null;
}

/**
 * The answers to the requests of this requester in the last `days` days (every number), counted once per request:
 * the requests of the account or sharing a strong mark (account, payer, browser) with `marks`. `refused`: requests
 * declined or reported, whoever answered (a refusal from the requester's side only weighs against the requester; one
 * from their address may be the owner's on a shared network). `answered`: those, and requests given another answer
 * not from the requester's side (`consents.requester_side` null), so the requester's own shares never outweigh the
 * owners' refusals. `numbers`: different numbers other than `e164` asked in the last `numbersHours` hours.
 */
export async function requesterSignals(
  db: Db | Tx,
  marks: RequesterMarks,
  e164: E164,
  days: number,
  numbersHours: number,
): Promise<{ answered: number; refused: number; numbers: number }> {
  const account = marks.account ?? null;
  const strong = markRows(marks).filter((r) => STRONG.includes(r.kind));
  const since = new Date(Date.now() - days * 86_400_000);
  const recent = new Date(Date.now() - numbersHours * 3_600_000);
  const { rows } = await db.execute<{ answered: number; refused: number; numbers: number }>(sql`
    with mine as (
      select r.id, r.target_e164, r.created_at from location_requests r
        where ${account ? sql`r.user_id = ${account}` : sql`false`}
      union
      select r.id, r.target_e164, r.created_at from requester_marks m join location_requests r on r.id = m.request_id
        where ${matchesAny(strong)}
    ), answers as (
      select c.request_id, c.decision in ('declined', 'reported') as refusal, c.requester_side
      from consents c join mine on mine.id = c.request_id
      where c.created_at > ${since}
    )
    select
      (select count(distinct request_id) from answers where refusal or requester_side is null)::int as answered,
      (select count(distinct request_id) from answers where refusal)::int as refused,
      (select count(distinct mine.target_e164) from mine
        where mine.created_at > ${recent} and mine.target_e164 <> ${e164})::int as numbers`);
  return rows[0] ?? { answered: 0, refused: 0, numbers: 0 };
}

/**
 * How an answer to request `request` is tied to its requester, strongest first: `session` (the answering browser is
 * signed in as the request's buyer), `device` (it is the browser the request was made from), `address` (it comes from
 * the address the request was made from); null when none. The buyer holds every link they pay for: such an answer
 * must not count as an owner's. An address alone is weak (a family shares one): the caller decides what it may do.
 */
export async function answeredByRequester(
  tx: Db | Tx,
  request: { id: string; userId: string },
  who: { sessionUserId: string | null; browserKey: string | null; ip: string | null },
): Promise<'session' | 'device' | 'address' | null> {
  return requesterSideOf(tx, request.userId, sql`m.request_id = ${request.id}`, who);
}

/**
 * Whether a caller is on the side of requester `requesterId` of number `e164`: signed in as that buyer, or with the
 * browser of one of their requests to the number. A consent link is in the requester's hands too: what only the owner
 * may do with it (a safety code to an opted-out number) is refused on that side. An address alone does not count: the
 * owner may share the requester's home network, and must not lose their way in for it.
 */
export async function onRequesterSide(
  db: Db | Tx,
  requesterId: string,
  e164: E164,
  who: { sessionUserId: string | null; browserKey: string | null },
): Promise<boolean> {
  const requests = sql`m.request_id in (select id from location_requests where user_id = ${requesterId}
    and target_e164 = ${e164})`;
  const side = await requesterSideOf(db, requesterId, requests, { ...who, ip: null });
  return side !== null;
}

/**
 * The strongest tie of a caller to requester `requesterId`: `session` (signed in as them), then `device` or `address`
 * (the caller's browser or address is a mark of one of the requests `requests` selects, a condition on
 * `requester_marks m`); null when none. One read at most.
 */
async function requesterSideOf(
  db: Db | Tx,
  requesterId: string,
  requests: SQL,
  who: { sessionUserId: string | null; browserKey: string | null; ip: string | null },
): Promise<'session' | 'device' | 'address' | null> {
  if (who.sessionUserId && who.sessionUserId === requesterId) return 'session';
  const rows = markRows({ device: who.browserKey, address: who.ip });
  if (rows.length === 0) return null;
  const { rows: found } = await db.execute<{ kind: MarkKind }>(
    sql`select distinct m.kind from requester_marks m where ${requests} and ${matchesAny(rows)}`,
  );
  const kinds = new Set(found.map((f) => f.kind));
  return kinds.has('device') ? 'device' : kinds.has('address') ? 'address' : null;
}
