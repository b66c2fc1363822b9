import 'server-only';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { sessions, users } from '../db/schema';
import { randomToken, sha256 } from './tokens';

/** Idle lifetime of a session (ms): 30 days; the accounts issue adds the 90-day absolute limit. */
export const SESSION_IDLE_MS = 30 * 24 * 3600 * 1000;

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/**
 * Opens a session for `userId` inside `tx`: a 256-bit random token whose SHA-256 hash is stored. Returns the token,
 * which exists only in this return value and the cookie (ARCHITECTURE §6).
 */
export async function createSession(
  tx: Tx | Db,
  userId: string,
  meta: { ip: string | null; userAgent: string | null },
): Promise<{ token: string; expiresAt: Date }> {
  const token = randomToken(32);
  const expiresAt = new Date(Date.now() + SESSION_IDLE_MS);
  await tx
    .insert(sessions)
    .values({ userId, tokenHash: sha256(token), ip: meta.ip, userAgent: meta.userAgent, expiresAt });
  return { token, expiresAt };
}

/**
 * The user of a live (not revoked, not expired) session token, or null. Slides the idle expiry forward at most once
 * a minute, so a busy session costs one write a minute.
 */
export async function findSessionUser(db: Db, token: string) {
  const [row] = await db
    .select({
      sessionId: sessions.id,
      lastSeenAt: sessions.lastSeenAt,
      id: users.id,
      email: users.email,
      paymentCount: users.paymentCount,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.tokenHash, sha256(token)), isNull(sessions.revokedAt), gt(sessions.expiresAt, sql`now()`)))
    .limit(1);
  if (!row) return null;
  if (Date.now() - row.lastSeenAt.getTime() > 60_000) {
    await db
      .update(sessions)
      .set({ lastSeenAt: new Date(), expiresAt: new Date(Date.now() + SESSION_IDLE_MS) })
      .where(eq(sessions.id, row.sessionId));
  }
  return { id: row.id, email: row.email, paymentCount: row.paymentCount, sessionId: row.sessionId };
}

export type { Tx };
