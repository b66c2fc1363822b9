import 'server-only';
import { randomInt, timingSafeEqual } from 'node:crypto';
import { and, eq, gt, isNotNull, lt, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { locationRequests, optOuts, outboundMessages, safetyCodes, safetySessions } from '../../db/schema';
import type { E164 } from '../../../lib/contracts/phone';
import { env } from '../../env';
import { translate } from '../../i18n';
import { languageOf } from '../../../i18n/routing';
import { issueSession, liveSessionWhere, revokeSessions, sessionOfToken } from '../sessions';
import { randomToken, sha256 } from '../tokens';

// The safety centre's sessions (opened by a consent link's code or a one-time SMS code) and its one-time codes. The
// session itself (token, 30 minutes, its end) is the one session module's (services/sessions.ts, kind `safety`).

/** How long a one-time code sent by SMS works, ms. */
export const SAFETY_CODE_MS = 10 * 60_000;
/** Wrong tries a one-time code takes, from all clients together, before it stops working. */
export const SAFETY_CODE_TRIES = 5;

/** How a session was opened: with a consent link's code (`link`) or a one-time code sent by SMS (`sms`). */
export type SessionVia = 'link' | 'sms';

/**
 * Opens a session for `e164`, opened `via` a consent link or an SMS code (services/sessions.ts `issueSession`: a random
 * token of 256 bits whose SHA-256 only is stored, ending 30 minutes from now). Returns the token (the cookie's
 * value) and the end.
 */
async function openSession(
  db: Db | Tx,
  e164: E164,
  via: SessionVia,
  requesterId: string | null = null,
): Promise<{ token: string; expiresAt: Date }> {
  const session = await issueSession(db, 'safety', { phoneE164: e164, via, requesterId });
  // Ended sessions of this number are of no use to anyone: dropped while we are here.
  await db
    .delete(safetySessions)
    .where(and(eq(safetySessions.phoneE164, e164), lt(safetySessions.expiresAt, new Date())));
  return session;
}

/**
 * Opens the safety centre of the number a consent `code` (from the SMS link) was sent to. The requester may hold the
 * same link (it is shown to them to pass on when an SMS fails), so such a session (`link`) is scoped to the requests of
 * the link's requester (`requesterId`): it never shows another requester of the number, nor acts on their requests,
 * and it cannot undo a block (see `canUndoBlocks`). The whole centre needs a code sent by SMS to the number. Null for an
 * unknown code (the caller counts it as a guess).
 */
export async function sessionFromConsentCode(db: Db, code: string): Promise<{ token: string; expiresAt: Date } | null> {
  const [row] = await db
    .select({ e164: locationRequests.targetE164, userId: locationRequests.userId })
    .from(locationRequests)
    .where(eq(locationRequests.consentCodeHash, sha256(code)))
    .limit(1);
  return row ? openSession(db, row.e164, 'link', row.userId) : null;
}

/**
 * The number a live session `token` is for, how it was opened and, for a `link` session, the one requester it is
 * scoped to (`requesterId`); null for an unknown, ended or absent token.
 */
export async function sessionOf(
  db: Db,
  token: string | undefined | null,
): Promise<{ e164: E164; via: SessionVia; requesterId: string | null } | null> {
  if (!token) return null;
  const [row] = await db
    .select({ e164: safetySessions.phoneE164, via: safetySessions.via, requesterId: safetySessions.requesterId })
    .from(safetySessions)
    .where(liveSessionWhere('safety', token))
    .limit(1);
  return row ?? null;
}

/**
 * Whether a session opened `via` may undo a block (unblock a requester, allow requests again): only one opened with a
 * one-time code sent by SMS to the number. A consent link's code is also in the requester's hands, and a requester
 * must never be able to lift the owner's block on them.
 */
export const canUndoBlocks = (via: SessionVia): boolean => via === 'sms';

/**
 * Whether a session opened `via` may put the whole number on the opt-out list (Block everyone): only one opened with a
 * one-time code sent by SMS to the number. A consent link is also in its requester's hands, and a requester must never
 * be able to shut every other requester out of the number (docs/rules.md#consent); a link session blocks, declines and
 * reports its own requester's requests only.
 */
export const canBlockEveryone = (via: SessionVia): boolean => via === 'sms';

/** Ends session `token` (the quick exit and "leave"): its row is deleted (services/sessions.ts). Idempotent. */
export async function closeSession(db: Db, token: string | undefined | null): Promise<void> {
  if (token) await revokeSessions(db, 'safety', sessionOfToken('safety', token));
}

/** A new one-time code: 6 random digits (crypto `randomInt`). */
const newCode = (): string => String(randomInt(0, 1_000_000)).padStart(6, '0');

/**
 * Sends the one-time code of `e164`'s safety centre by SMS, in `language` (the text is `Sms.safetyCode` of
 * messages/{en,es,id}.json). The code is 6 digits, works SAFETY_CODE_MS from its last sending and takes
 * SAFETY_CODE_TRIES wrong tries from all clients together. Asking again while the code still works sends **the same
 * code** again (its tries are not given back; its time starts again), so that a second ask, the owner's or anyone's,
 * never makes the code the owner is typing useless; a new code is drawn only once the last one has ended or used its
 * tries. The SMS goes only to a number we already sent a consent SMS to, not to a number on the opt-out list unless
 * `ownerLink` (the ask comes from a safety-centre session opened with one of this number's consent links), and within
 * the service's global daily SMS cap (SMS_GLOBAL_DAILY_CAP). The consent-SMS cap per number does not apply: requesters
 * fill it; the code's own ceilings are the caller's rate limits (docs/decisions/0016-safety-code-limits.md).
 *
 * Every ask does the same work whether or not anything is sent, so that neither the answer nor its time tells whether
 * the number has requests: the same statements in the same order, each writing (a number we never texted gets a
 * decoy row whose code is null and never opens anything; see `verifySafetyCode`), all under the SMS queue's lock.
 * Returns the code SMS's row id (the outbox announces it at commit), or null when nothing was sent.
 */
export async function sendSafetyCode(
  db: Db,
  e164: E164,
  language: string,
  { ownerLink = false }: { ownerLink?: boolean } = {},
): Promise<string | null> {
  const now = new Date();
  const dayAgo = new Date(now.getTime() - 24 * 3600_000);
  return db.transaction(async (tx) => {
    // The same lock as every consent SMS (services/locate/consent-sms-outbox.ts), so the global cap and this
    // number's code hold.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('sms-queue'))`);
    const [facts] = (
      await tx.execute<{
        known: boolean;
        opted_out: boolean;
        sent_today: number;
        code: string | null;
        expires_at: Date | string | null;
        attempts: number | null;
      }>(sql`select
        exists (select 1 from ${outboundMessages} m where m.channel = 'sms' and m.recipient = ${e164}
          and m.location_request_id is not null) as known,
        exists (select 1 from ${optOuts} o where o.phone_e164 = ${e164}) as opted_out,
        (select count(*)::int from ${outboundMessages} m where m.channel = 'sms' and m.created_at > ${dayAgo}) as sent_today,
        c.code, c.expires_at, c.attempts
        from (select 1) one left join ${safetyCodes} c on c.phone_e164 = ${e164}`)
    ).rows;
    const send = facts.known && (!facts.opted_out || ownerLink) && facts.sent_today < env().SMS_GLOBAL_DAILY_CAP;
    const live =
      facts.code !== null &&
      facts.expires_at !== null &&
      new Date(facts.expires_at) > now &&
      (facts.attempts ?? 0) < SAFETY_CODE_TRIES;
    const code = live ? facts.code! : newCode();
    const expiresAt = new Date(now.getTime() + SAFETY_CODE_MS);
    // One statement either way: sent, the code (the same one while it lives) with its time started again; not sent,
    // the row as it was, or a decoy where there was none.
    await tx
      .insert(safetyCodes)
      .values({
        phoneE164: e164,
        codeHash: send ? sha256(`${e164}:${code}`) : sha256(randomToken(32)),
        code: send ? code : null,
        expiresAt,
        attempts: 0,
      })
      .onConflictDoUpdate({
        target: safetyCodes.phoneE164,
        set: {
          codeHash: sql`case when ${send} then ${sha256(`${e164}:${code}`)} else ${safetyCodes.codeHash} end`,
          code: sql`case when ${send} then ${code} else ${safetyCodes.code} end`,
          expiresAt: sql`case when ${send} then ${expiresAt} else ${safetyCodes.expiresAt} end`,
          attempts: sql`case when ${send} and not ${live} then 0 else ${safetyCodes.attempts} end`,
          createdAt: sql`case when ${send} and not ${live} then now() else ${safetyCodes.createdAt} end`,
        },
      });
    const lang = languageOf(language);
    const text = (shown: string) =>
      translate(lang, 'Sms.safetyCode', { product: env().NEXT_PUBLIC_PRODUCT_NAME, code: shown });
    const redacted = JSON.stringify({ body: text('[code]'), html: null });
    const { rows } = await tx.execute<{ id: string }>(sql`insert into ${outboundMessages}
        (channel, recipient, locale, template, body, redacted)
      select 'sms', ${e164}, ${lang}, 'safety_code', ${text(code)}, ${redacted}::jsonb
      where ${send} returning id`);
    return rows[0]?.id ?? null;
  });
}

/**
 * Checks a one-time `code` for `e164`: every try first spends one of the code's SAFETY_CODE_TRIES in one conditional
 * UPDATE, so guesses from any number of clients at once get SAFETY_CODE_TRIES comparisons in all. A right code is
 * used up (deleted) and opens a session. Null for a wrong, used, ended or absent code, and always for a decoy row
 * (`code` null: nothing was sent, see `sendSafetyCode`).
 */
export async function verifySafetyCode(
  db: Db,
  e164: E164,
  code: string,
): Promise<{ token: string; expiresAt: Date } | null> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(safetyCodes)
      .set({ attempts: sql`${safetyCodes.attempts} + 1` })
      .where(
        and(
          eq(safetyCodes.phoneE164, e164),
          isNotNull(safetyCodes.code),
          gt(safetyCodes.expiresAt, new Date()),
          lt(safetyCodes.attempts, SAFETY_CODE_TRIES),
        ),
      )
      .returning({ codeHash: safetyCodes.codeHash });
    if (!row) return null;
    const given = Buffer.from(sha256(`${e164}:${code}`));
    const stored = Buffer.from(row.codeHash);
    if (given.length !== stored.length || !timingSafeEqual(given, stored)) return null;
    await tx.delete(safetyCodes).where(eq(safetyCodes.phoneE164, e164));
    return openSession(tx, e164, 'sms');
  });
}
