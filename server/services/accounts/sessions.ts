import 'server-only';
import { and, eq, ne, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { sessions, users } from '../../db/schema';
import { issueSession, liveSessionWhere, renewSessionIfDue, renewSessions, revokeSessions } from '../sessions';
import { sha256 } from '../tokens';

// The buyer's sessions (docs/decisions/0001-session-is-an-httponly-cookie.md; docs/rules.md "Limits"): the user the API
// sees behind a cookie or the app's header, the live streams' check of their sessions, and revocation. The token, its
// lifetimes (30 idle days within 90), the sliding renewal, the revocation and its announcement to the live hub are the
// one session module's (services/sessions.ts, kind `buyer`; docs/decisions/0025-one-session-module.md).

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
 * Opens a buyer's session for `userId` inside `tx` (services/sessions.ts `issueSession`: a 256-bit random token whose
 * SHA-256 only is stored, 30 idle days within 90 in all). `restricted` marks a session opened with a temporary password
 * (it may only change the password). Returns the token, which exists only in this return value and the cookie
 * (docs/rules.md#security), and the idle expiry.
 */
export async function createSession(
  tx: Tx | Db,
  userId: string,
  meta: { ip: string | null; userAgent: string | null; restricted?: boolean },
): Promise<{ token: string; expiresAt: Date }> {
  return issueSession(tx, 'buyer', {
    userId,
    ip: meta.ip,
    userAgent: meta.userAgent,
    restricted: meta.restricted ?? false,
  });
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
 * Which of `tokens` still name a live, unrestricted session, a thousand tokens per read (the open live streams check
 * theirs together: services/locate/live-streams.ts). Returns token → user id for those; the others are gone (signed
 * out, expired, revoked). Slides the idle expiry of the found sessions forward at most once a minute, never past the
 * absolute expiry, in one UPDATE per read (services/sessions.ts `renewSessions`), as `findSessionUser` does.
 */
export async function liveSessionOwners(db: Db, tokens: readonly string[]): Promise<Map<string, string>> {
  const unique = [...new Set(tokens)];
  const owners = new Map<string, string>();
  // A thousand at a time: one parameter per token, far below PostgreSQL's 65,535 per statement.
  for (let i = 0; i < unique.length; i += 1000) {
    const chunk = unique.slice(i, i + 1000);
    const byHash = new Map(chunk.map((t) => [sha256(t), t]));
    const live = await db
      .select({ tokenHash: sessions.tokenHash, userId: sessions.userId })
      .from(sessions)
      .where(and(liveSessionWhere('buyer', chunk), eq(sessions.restricted, false)));
    await renewSessions(
      db,
      'buyer',
      live.map((s) => s.tokenHash),
    );
    for (const row of live) owners.set(byHash.get(row.tokenHash)!, row.userId);
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
      tokenHash: sessions.tokenHash,
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
    .where(liveSessionWhere('buyer', token))
    .limit(1);
  if (!row) return null;
  await renewSessionIfDue(db, 'buyer', row);
  const { sessionId, id, email, paymentCount, restricted, firstPassword } = row;
  return { sessionId, id, email, paymentCount, restricted, firstPassword, endsBy: row.absoluteExpiresAt };
}

/**
 * Revokes one session (sign-out). Its open live streams end at once, in every process (services/sessions.ts
 * `revokeSessions` announces it; services/locate/live-streams.ts).
 */
export async function revokeSession(db: Db | Tx, sessionId: string): Promise<void> {
  await revokeSessions(db, 'buyer', eq(sessions.id, sessionId));
}

/**
 * Revokes every live session of `userId` except `keepSessionId` (after a password change or reset); their open live
 * streams end at once, as at sign-out (OWASP Session Management Cheat Sheet, "Renew the Session ID After Any Privilege
 * Level Change").
 */
export async function revokeOtherSessions(tx: Db | Tx, userId: string, keepSessionId?: string): Promise<void> {
  await revokeSessions(
    tx,
    'buyer',
    and(eq(sessions.userId, userId), keepSessionId ? ne(sessions.id, keepSessionId) : undefined)!,
  );
}
