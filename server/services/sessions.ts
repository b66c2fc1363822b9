import 'server-only';
import { and, eq, gt, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { E164 } from '../../lib/contracts/phone';
import {
  cookieNameFor,
  hostPrefixed,
  OPS_COOKIE_BASE,
  SAFETY_COOKIE_BASE,
  SESSION_COOKIE_BASE,
} from '../../lib/session-cookie-names';
import type { Db, Tx } from '../db/client';
import { operatorSessions, safetySessions, sessions } from '../db/schema';
import { announceSessionsEnded } from './live-channel';
import { randomToken, sha256 } from './tokens';

// The one session module (docs/decisions/0025-one-session-module.md): the buyer's, the operator's and the safety
// centre's sessions are database rows named by a random token whose SHA-256 only is stored, with an idle and/or an
// absolute expiry, revocable at once, and carried by an HttpOnly cookie (RFC 6265; OWASP Session Management Cheat
// Sheet; docs/decisions/0001-session-is-an-httponly-cookie.md). What a kind's session names (a user, an operator, one
// number) and who may open one stay in its domain: accounts, ops and safety call this module, and nothing else writes
// the three tables.

/** The three kinds of session: a buyer's account, an operator's console, a phone owner's safety centre. */
export type SessionKind = 'buyer' | 'operator' | 'safety';

/**
 * What a kind of session is. `idleMs` (ms) is the idle lifetime, slid forward on use, or null when the kind has none;
 * `absoluteMs` (ms) ends the session whatever its use, and is the cookie's Max-Age; `cookie` is the cookie's name
 * without its `__Host-` prefix (lib/session-cookie-names.ts); `sameSite` its SameSite attribute (RFC 6265bis,
 * "The SameSite Attribute"); `announcesEnd`: ended sessions are announced to the live hub, so the streams they opened
 * close (services/live-channel.ts). How a session ends (a `revoked_at` stamp, or the row deleted) is its storage's.
 */
export type SessionPolicy = {
  cookie: string;
  sameSite: 'Lax' | 'Strict';
  idleMs: number | null;
  absoluteMs: number;
  announcesEnd: boolean;
};

/**
 * The kinds' policies. Buyer: 30 idle days slid on use, 90 days in all (the `userInfo` cookie's 90 days), SameSite=Lax
 * so a link from an e-mail or an ad arrives signed in (docs/rules.md "Limits";
 * docs/decisions/0001-session-is-an-httponly-cookie.md). Operator: 12 hours from sign-in, never extended,
 * SameSite=Strict (docs/running.md "The operator console"). Safety: 30 minutes from opening, never extended,
 * SameSite=Strict, deleted at the quick exit: a shared or stolen phone exposes little (docs/rules.md "Consent").
 */
export const SESSION_POLICIES: Readonly<Record<SessionKind, SessionPolicy>> = {
  buyer: {
    cookie: SESSION_COOKIE_BASE,
    sameSite: 'Lax',
    idleMs: 30 * 24 * 3600_000,
    absoluteMs: 90 * 24 * 3600_000,
    announcesEnd: true,
  },
  operator: {
    cookie: OPS_COOKIE_BASE,
    sameSite: 'Strict',
    idleMs: null,
    absoluteMs: 12 * 3600_000,
    announcesEnd: false,
  },
  safety: {
    cookie: SAFETY_COOKIE_BASE,
    sameSite: 'Strict',
    idleMs: null,
    absoluteMs: 30 * 60_000,
    announcesEnd: false,
  },
};

/** Random bytes of a session token: 32 (256 bits, base64url), above the 64 bits of entropy OWASP asks for. */
const TOKEN_BYTES = 32;
/** A kind with an idle expiry slides it forward at most once per this many ms of use (one write a minute at most). */
const SESSION_RENEW_AFTER_MS = 60_000;

/** What a session names besides its token and expiry, per kind: the columns its domain fills in (server/db/schema). */
export type SessionScope = {
  buyer: { userId: string; ip: string | null; userAgent: string | null; restricted: boolean };
  operator: { operatorId: string; ip: string | null };
  safety: { phoneE164: E164; via: 'link' | 'sms'; requesterId: string | null };
};

/** A session being opened: the token's SHA-256 that is stored, its idle (or only) end and its absolute end. */
type Stamps = { tokenHash: string; expiresAt: Date; absoluteExpiresAt: Date };

/** Where a kind's sessions are stored: its table, the columns this module reads and writes, and its insert. */
type Store<K extends SessionKind> = {
  table: typeof sessions | typeof operatorSessions | typeof safetySessions;
  tokenHash: PgColumn;
  /** The idle expiry for a kind that has one, else the one end. */
  expiresAt: PgColumn;
  absoluteExpiresAt?: PgColumn;
  lastSeenAt?: PgColumn;
  revokedAt?: PgColumn;
  insert: (db: Db | Tx, scope: SessionScope[K], stamps: Stamps) => Promise<unknown>;
};

/** The three tables as they are (sessions, operator_sessions, safety_sessions): no column is added or renamed. */
const STORES: { [K in SessionKind]: Store<K> } = {
  buyer: {
    table: sessions,
    tokenHash: sessions.tokenHash,
    expiresAt: sessions.expiresAt,
    absoluteExpiresAt: sessions.absoluteExpiresAt,
    lastSeenAt: sessions.lastSeenAt,
    revokedAt: sessions.revokedAt,
    insert: (db, scope, stamps) => db.insert(sessions).values({ ...scope, ...stamps }),
  },
  operator: {
    table: operatorSessions,
    tokenHash: operatorSessions.tokenHash,
    expiresAt: operatorSessions.expiresAt,
    revokedAt: operatorSessions.revokedAt,
    insert: (db, scope, { tokenHash, expiresAt }) =>
      db.insert(operatorSessions).values({ ...scope, tokenHash, expiresAt }),
  },
  safety: {
    table: safetySessions,
    tokenHash: safetySessions.tokenHash,
    expiresAt: safetySessions.expiresAt,
    insert: (db, scope, { tokenHash, expiresAt }) =>
      db.insert(safetySessions).values({ ...scope, tokenHash, expiresAt }),
  },
};

/**
 * Opens a session of `kind` for `scope` inside `db` (a transaction when the caller's work must commit with it): a
 * 256-bit random token whose SHA-256 only is stored (docs/rules.md#security), its idle expiry (or its one end) and, for
 * a kind with both, its absolute expiry, from this process's clock. Returns the token, which exists only in this return
 * value and the cookie, and `expiresAt`, the expiry just stored.
 */
export async function issueSession<K extends SessionKind>(
  db: Db | Tx,
  kind: K,
  scope: SessionScope[K],
): Promise<{ token: string; expiresAt: Date }> {
  const token = randomToken(TOKEN_BYTES);
  const now = Date.now();
  const { idleMs, absoluteMs } = SESSION_POLICIES[kind];
  const expiresAt = new Date(now + (idleMs ?? absoluteMs));
  await STORES[kind].insert(db, scope, {
    tokenHash: sha256(token),
    expiresAt,
    absoluteExpiresAt: new Date(now + absoluteMs),
  });
  return { token, expiresAt };
}

/** The condition "live" on a kind's rows: not revoked, within its idle and absolute expiry (the database's clock). */
function liveCondition(kind: SessionKind): SQL {
  const store = STORES[kind];
  return and(
    store.revokedAt ? isNull(store.revokedAt) : undefined,
    gt(store.expiresAt, sql`now()`),
    store.absoluteExpiresAt ? gt(store.absoluteExpiresAt, sql`now()`) : undefined,
  )!;
}

/**
 * The WHERE condition that a row of `kind`'s table is the live session of `tokens` (one token, or any of several): the
 * token's SHA-256 matches, the session is not revoked, and now (the database's clock) is before its idle and absolute
 * expiry. Its domain composes it with its own join and columns (the user, the operator, the number); a token that
 * matches nothing is no session (OWASP Session Management Cheat Sheet, "Session Expiration").
 */
export function liveSessionWhere(kind: SessionKind, tokens: string | readonly string[]): SQL {
  const hashes = (typeof tokens === 'string' ? [tokens] : [...tokens]).map(sha256);
  return and(inArray(STORES[kind].tokenHash, hashes), liveCondition(kind))!;
}

/**
 * Slides the idle expiry of the live sessions of `kind` whose token hashes are `tokenHashes` forward (idleMs from now,
 * never past the absolute expiry), for those last seen more than SESSION_RENEW_AFTER_MS ago; one UPDATE on the
 * database's clock. Does nothing for a kind without an idle expiry: the operator's and the safety centre's end at a
 * fixed time (OWASP Session Management Cheat Sheet, "Absolute Timeout").
 */
export async function renewSessions(db: Db | Tx, kind: SessionKind, tokenHashes: readonly string[]): Promise<void> {
  const store = STORES[kind];
  const { idleMs } = SESSION_POLICIES[kind];
  if (idleMs === null || !store.lastSeenAt || !store.absoluteExpiresAt || tokenHashes.length === 0) return;
  const idle = sql`make_interval(secs => ${idleMs / 1000})`;
  await db.execute(sql`update ${store.table}
    set ${sql.identifier(store.lastSeenAt.name)} = now(),
      ${sql.identifier(store.expiresAt.name)} = least(now() + ${idle}, ${store.absoluteExpiresAt})
    where ${inArray(store.tokenHash, [...tokenHashes])} and ${liveCondition(kind)}
      and ${store.lastSeenAt} < now() - make_interval(secs => ${SESSION_RENEW_AFTER_MS / 1000})`);
}

/**
 * `renewSessions` for the one session just read, written only when it is due (last seen more than
 * SESSION_RENEW_AFTER_MS ago by this process's clock), so that most requests write nothing.
 */
export async function renewSessionIfDue(
  db: Db | Tx,
  kind: SessionKind,
  session: { tokenHash: string; lastSeenAt: Date },
): Promise<void> {
  if (Date.now() - session.lastSeenAt.getTime() > SESSION_RENEW_AFTER_MS) {
    await renewSessions(db, kind, [session.tokenHash]);
  }
}

/**
 * Ends every session of `kind` that `which` selects (a condition on the kind's table: one session's id or token, all of
 * a user's but one): a kind that keeps its rows stamps `revoked_at` on those not yet revoked, the safety centre deletes
 * them. The buyer's ended sessions are announced to the live hub, so the streams they opened end at once in every
 * process (services/live-channel.ts; at the commit when `db` is a transaction). Returns how many ended.
 */
export async function revokeSessions(db: Db | Tx, kind: SessionKind, which: SQL): Promise<number> {
  const store = STORES[kind];
  const { rows } = store.revokedAt
    ? await db.execute<{ token_hash: string }>(sql`update ${store.table}
        set ${sql.identifier(store.revokedAt.name)} = ${new Date()}
        where ${which} and ${store.revokedAt} is null returning ${store.tokenHash}`)
    : await db.execute<{ token_hash: string }>(
        sql`delete from ${store.table} where ${which} returning ${store.tokenHash}`,
      );
  if (SESSION_POLICIES[kind].announcesEnd) {
    await announceSessionsEnded(
      db,
      rows.map((r) => r.token_hash),
    );
  }
  return rows.length;
}

/** The condition "this session" for `revokeSessions`: the row of `token` (its SHA-256). */
export function sessionOfToken(kind: SessionKind, token: string): SQL {
  return eq(STORES[kind].tokenHash, sha256(token));
}

/**
 * A session cookie of `kind` as RFC 6265 attributes, for the APP_ORIGIN `origin`: its name (`__Host-` prefixed on
 * https, lib/session-cookie-names.ts), HttpOnly (no script reads it), the kind's SameSite, Secure on https, Path=/ and
 * no Domain (what the `__Host-` prefix demands, RFC 6265bis "Cookie Name Prefixes"), and Max-Age the kind's absolute
 * lifetime in seconds. The HTTP edge writes it (server/api/session-cookies.ts).
 */
export function sessionCookieOf(
  kind: SessionKind,
  origin: string | undefined,
): { name: string; httpOnly: true; sameSite: 'Lax' | 'Strict'; secure: boolean; path: '/'; maxAge: number } {
  const policy = SESSION_POLICIES[kind];
  return {
    name: cookieNameFor(policy.cookie, origin),
    httpOnly: true,
    sameSite: policy.sameSite,
    secure: hostPrefixed(origin),
    path: '/',
    maxAge: Math.floor(policy.absoluteMs / 1000),
  };
}
