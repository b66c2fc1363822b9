import 'server-only';
import { and, eq, gt, inArray, isNull, ne, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { sessions, users } from '../../db/schema';
import { announceSessionsEnded } from '../live-channel';
import { randomToken, sha256 } from '../tokens';

// Sessions (docs/decisions/0001-session-is-an-httponly-cookie.md; docs/rules.md "Limits"): a 256-bit random token kept
// only as its SHA-256, idle and absolute lifetimes, the user the API sees behind a cookie, and revocation, which the
// live hub announces so that the maps a session opened close with it.

/** Idle lifetime of a session (ms): 30 days, slid forward on use. */
export const SESSION_IDLE_MS = 30 * 24 * 3600 * 1000;
/** Absolute lifetime of a session (ms): 90 days, the `userInfo` cookie's 90 days (docs/rules.md#entities). */
export const SESSION_ABSOLUTE_MS = 90 * 24 * 3600 * 1000;

/**
 * The user behind a live session, as the API sees it; `endsBy` is the session's absolute expiry (its idle expiry slides
 * with use), the moment by which anything it opened must end (services/locate/live-streams.ts).
 */
export type SessionUser = {
  id: string;
  email: string;
  paymentCount: number;
  sessionId: string;
  restricted: boolean;
  /**
   * The session was opened by the payment that created the account and the temporary password was never replaced: the
   * account's first password may be chosen in it without the temporary one (`changePassword`, docs/security.md
   * "Accounts"). Known by the account and the session sharing one `created_at`: the payment inserts both in one
   * transaction, and PostgreSQL's now() is the start time of the current transaction (PostgreSQL manual, "Current
   * Date/Time"), which no later sign-in can share.
   */
  firstPassword: boolean;
  endsBy: Date;
};

/**
 * Opens a session for `userId` inside `tx`: a 256-bit random token whose SHA-256 hash is stored. `restricted` marks a
 * session opened with a temporary password (it may only change the password). Returns the token, which exists only
 * in this return value and the cookie (docs/rules.md#security).
 */
export async function createSession(
  tx: Tx | Db,
  userId: string,
  meta: { ip: string | null; userAgent: string | null; restricted?: boolean },
): Promise<{ token: string; expiresAt: Date }> {
  const token = randomToken(32);
  const now = Date.now();
  const expiresAt = new Date(now + SESSION_IDLE_MS);
  await tx.insert(sessions).values({
    userId,
    tokenHash: sha256(token),
    ip: meta.ip,
    userAgent: meta.userAgent,
    expiresAt,
    absoluteExpiresAt: new Date(now + SESSION_ABSOLUTE_MS),
    restricted: meta.restricted ?? false,
  });
  return { token, expiresAt };
}

/**
 * The user signed in by every one of `tokens` (a session cookie and/or the app's token header, as a request carries
 * them): null when there is none, when one names no live session, or when they name different users (docs/rules.md#roles).
 * The HTTP layer answers 401 for null (server/api/middleware.ts); the caller decides what a `restricted` session may do.
 */
export async function sessionUserOf(db: Db, tokens: readonly string[]): Promise<SessionUser | null> {
  const unique = [...new Set(tokens)];
  if (unique.length === 0) return null;
  const found = await Promise.all(unique.map((t) => findSessionUser(db, t)));
  if (!found.every((u) => u && u.id === found[0]!.id)) return null;
  const endsBy = Math.min(...found.map((u) => u!.endsBy.getTime()));
  return { ...found[0]!, endsBy: new Date(endsBy) };
}

/**
 * Which of `tokens` still name a live, unrestricted session, in one statement for any number of tokens (the open live
 * streams check theirs together: services/locate/live-streams.ts). Returns token → user id for those; the others are
 * gone (signed out, expired, revoked). Slides the idle expiry of each found session forward at most once a minute,
 * never past the absolute expiry, as `findSessionUser` does.
 */
export async function liveSessionOwners(db: Db, tokens: readonly string[]): Promise<Map<string, string>> {
  const byHash = new Map([...new Set(tokens)].map((t) => [sha256(t), t]));
  const owners = new Map<string, string>();
  const hashes = [...byHash.keys()];
  // A thousand at a time: one parameter per token, far below PostgreSQL's 65,535 per statement.
  for (let i = 0; i < hashes.length; i += 1000) {
    const { rows } = await db.execute<{ token_hash: string; user_id: string }>(sql`
      with live as (
        select id, token_hash, user_id, last_seen_at from ${sessions}
        where ${inArray(sessions.tokenHash, hashes.slice(i, i + 1000))} and revoked_at is null and not restricted
          and expires_at > now() and absolute_expires_at > now()
      ), touched as (
        update ${sessions} set last_seen_at = now(),
          expires_at = least(now() + make_interval(secs => ${SESSION_IDLE_MS / 1000}), ${sessions.absoluteExpiresAt})
        from live where ${sessions.id} = live.id and live.last_seen_at < now() - interval '1 minute'
      )
      select token_hash, user_id from live`);
    for (const row of rows) owners.set(byHash.get(row.token_hash)!, row.user_id);
  }
  return owners;
}

/**
 * The user of a live session token (not revoked, within both its idle and absolute expiry), or null. Slides the idle
 * expiry forward at most once a minute, never past the absolute expiry.
 */
export async function findSessionUser(db: Db, token: string): Promise<SessionUser | null> {
  const [row] = await db
    .select({
      sessionId: sessions.id,
      lastSeenAt: sessions.lastSeenAt,
      absoluteExpiresAt: sessions.absoluteExpiresAt,
      restricted: sessions.restricted,
      firstPassword: sql<boolean>`(${users.tempPasswordExpiresAt} is not null and ${sessions.createdAt} = ${users.createdAt})`,
      id: users.id,
      email: users.email,
      paymentCount: users.paymentCount,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(
      and(
        eq(sessions.tokenHash, sha256(token)),
        isNull(sessions.revokedAt),
        gt(sessions.expiresAt, sql`now()`),
        gt(sessions.absoluteExpiresAt, sql`now()`),
      ),
    )
    .limit(1);
  if (!row) return null;
  if (Date.now() - row.lastSeenAt.getTime() > 60_000) {
    const expiresAt = new Date(Math.min(Date.now() + SESSION_IDLE_MS, row.absoluteExpiresAt.getTime()));
    await db.update(sessions).set({ lastSeenAt: new Date(), expiresAt }).where(eq(sessions.id, row.sessionId));
  }
  const { sessionId, id, email, paymentCount, restricted, firstPassword } = row;
  return { sessionId, id, email, paymentCount, restricted, firstPassword, endsBy: row.absoluteExpiresAt };
}

/**
 * Revokes one session (sign-out). Its open live streams end at once, in every process (`announceSessionsEnded`,
 * services/locate/live-streams.ts).
 */
export async function revokeSession(db: Db | Tx, sessionId: string): Promise<void> {
  const ended = await db
    .update(sessions)
    .set({ revokedAt: new Date() })
    .where(eq(sessions.id, sessionId))
    .returning({ tokenHash: sessions.tokenHash });
  await announceSessionsEnded(
    db,
    ended.map((s) => s.tokenHash),
  );
}

/**
 * Revokes every live session of `userId` except `keepSessionId` (after a password change or reset); their open live
 * streams end at once, as at sign-out.
 */
export async function revokeOtherSessions(tx: Db | Tx, userId: string, keepSessionId?: string): Promise<void> {
  const ended = await tx
    .update(sessions)
    .set({ revokedAt: new Date() })
    .where(
      and(
        eq(sessions.userId, userId),
        isNull(sessions.revokedAt),
        keepSessionId ? ne(sessions.id, keepSessionId) : undefined,
      ),
    )
    .returning({ tokenHash: sessions.tokenHash });
  await announceSessionsEnded(
    tx,
    ended.map((s) => s.tokenHash),
  );
}
