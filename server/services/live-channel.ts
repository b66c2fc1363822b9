import 'server-only';
import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';

// The PostgreSQL channel of live location and the one notice on it that is not locate's own: the end of sessions
// (PostgreSQL docs, "NOTIFY"; docs/decisions/0019-live-broker.md). A buyer's sign-out or revocation is announced here
// (services/sessions.ts, for accounts), and the live hub (services/locate) hears it and ends the streams those sessions opened. It stays outside both
// folders because each imports the other's side: locate reads accounts' sessions, accounts tells locate's hub
// (docs/decisions/0020-domain-folders.md, "Locate").

/** The PostgreSQL channel the `notify_request_live` trigger announces on (drizzle/0023_live_location.sql). */
export const LIVE_CHANNEL = 'request_live';

/** Session tokens that ended (signed out or revoked), by their SHA-256, as announced on LIVE_CHANNEL. */
export type SessionsEnded = { k: 'x'; h: string[] };

/** At most this many token hashes in one notification (64 hex characters each; PostgreSQL's payload is < 8,000 B). */
const HASHES_PER_NOTICE = 100;

/**
 * Announces to every process's hub that the sessions whose token hashes are `tokenHashes` ended, so that their open
 * live streams end at once rather than at the next session check (services/locate/open-streams.ts `closeSessions`).
 * Inside a transaction the notice goes at its commit (PostgreSQL docs, "NOTIFY"), so a rolled-back sign-out ends
 * nothing.
 */
export async function announceSessionsEnded(db: Db | Tx, tokenHashes: readonly string[]): Promise<void> {
  for (let i = 0; i < tokenHashes.length; i += HASHES_PER_NOTICE) {
    const notice: SessionsEnded = { k: 'x', h: tokenHashes.slice(i, i + HASHES_PER_NOTICE) };
    await db.execute(sql`select pg_notify(${LIVE_CHANNEL}, ${JSON.stringify(notice)})`);
  }
}
