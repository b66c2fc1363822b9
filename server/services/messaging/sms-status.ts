import 'server-only';
import { and, eq, gt, isNull, lt, or } from 'drizzle-orm';
import type { E164 } from '../../../lib/contracts/phone';
import type { SmsProvider } from '../../providers/sms';
import type { Db } from '../../db/client';
import { outboundMessages } from '../../db/schema';
import { optOut } from './opt-outs';
import { log } from '../../observability/log';

// What happens to an SMS after it is handed to the provider (Twilio "Track the message status" docs): the status
// callbacks, a poll for those whose callback was lost, and the inbound STOP that puts a number on the opt-out list
// (Twilio "Advanced Opt-Out" docs; ./opt-outs.ts). A status only moves forward (docs/rules.md#states).

type Status = 'queued' | 'sending' | 'sent' | 'delivered' | 'failed';

/** Twilio MessageStatus → our message status (Twilio "Track the message status" docs). */
const TWILIO_STATUS: Record<string, Status> = {
  accepted: 'queued',
  scheduled: 'queued',
  queued: 'queued',
  sending: 'queued',
  sent: 'sent',
  delivered: 'delivered',
  read: 'delivered',
  undelivered: 'failed',
  failed: 'failed',
  canceled: 'failed',
};

/** Order of statuses: a callback may only move a message forward (callbacks can arrive late or twice). */
const RANK: Record<Status, number> = { queued: 0, sending: 0, sent: 1, delivered: 2, failed: 2 };

/**
 * Applies a Twilio status callback to the outbox row with that MessageSid. Moves only forward (a late `sent` after
 * `delivered` is ignored; duplicates change nothing). Returns the row's status afterwards, or null when the SID is
 * unknown or the status is not one Twilio documents.
 */
export async function applyTwilioStatus(db: Db, messageSid: string, twilioStatus: string, errorCode?: string) {
  const next = TWILIO_STATUS[twilioStatus.toLowerCase()];
  if (!next) return null;
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(outboundMessages)
      .where(and(eq(outboundMessages.providerMessageId, messageSid), eq(outboundMessages.channel, 'sms')))
      .for('update');
    if (!row) return null;
    if (RANK[next] <= RANK[row.status]) return row.status;
    await tx
      .update(outboundMessages)
      .set({ status: next, lastError: next === 'failed' ? `twilio ${errorCode ?? 'failed'}` : row.lastError })
      .where(eq(outboundMessages.id, row.id));
    return next;
  });
}

/** How long after handing an SMS over its final status is awaited before the provider is asked. */
export const STATUS_CHECK_AFTER_MS = 10 * 60_000;
/** How long a message is still asked about; older ones keep their last known status. */
const STATUS_CHECK_UNTIL_MS = 3 * 24 * 3600_000;

/**
 * Asks the SMS provider for messages that were handed over more than 10 minutes ago and never reached a final status
 * (their status callback was lost): each is asked at most every 10 minutes, for up to 3 days, 50 per run, and the
 * answer goes through `applyTwilioStatus` (forward only). A failed message then shows "SMS not delivered" to the
 * buyer. Providers without a status call (the demo outbox) are skipped. Returns how many were asked.
 */
export async function pollSmsStatuses(db: Db, provider: SmsProvider, now = new Date()): Promise<number> {
  if (!provider.status) return 0;
  const due = new Date(now.getTime() - STATUS_CHECK_AFTER_MS);
  const rows = await db
    .select({ id: outboundMessages.id, sid: outboundMessages.providerMessageId })
    .from(outboundMessages)
    .where(
      and(
        eq(outboundMessages.channel, 'sms'),
        eq(outboundMessages.status, 'sent'),
        eq(outboundMessages.provider, provider.name),
        lt(outboundMessages.sentAt, due),
        gt(outboundMessages.sentAt, new Date(now.getTime() - STATUS_CHECK_UNTIL_MS)),
        or(isNull(outboundMessages.statusCheckedAt), lt(outboundMessages.statusCheckedAt, due)),
      ),
    )
    .limit(50);
  for (const row of rows) {
    if (!row.sid) continue;
    try {
      await applyTwilioStatus(db, row.sid, await provider.status(row.sid));
    } catch (error) {
      log().warn({ component: 'sms-status', err: (error as Error).name }, 'status lookup failed');
    }
    await db.update(outboundMessages).set({ statusCheckedAt: now }).where(eq(outboundMessages.id, row.id));
  }
  return rows.length;
}

/** Opt-out keywords Twilio and carriers recognise (Twilio "Advanced Opt-Out" docs). */
const STOP_WORDS = new Set(['STOP', 'STOPALL', 'UNSUBSCRIBE', 'CANCEL', 'END', 'QUIT', 'OPTOUT', 'REVOKE']);

/**
 * An inbound SMS: a STOP keyword from a number (`from`, parsed by the webhook route) puts it on the opt-out list.
 * Returns whether it opted out.
 */
export async function applyInboundSms(db: Db, from: E164, body: string): Promise<boolean> {
  if (!STOP_WORDS.has(body.trim().toUpperCase())) return false;
  await optOut(db, from, 'stop');
  return true;
}
