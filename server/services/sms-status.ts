import 'server-only';
import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { outboundMessages } from '../db/schema';
import { optOut } from './sms-guards';

type Status = 'queued' | 'sent' | 'delivered' | 'failed';

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
const RANK: Record<Status, number> = { queued: 0, sent: 1, delivered: 2, failed: 2 };

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

/** Opt-out keywords Twilio and carriers recognise (Twilio "Advanced Opt-Out" docs). */
const STOP_WORDS = new Set(['STOP', 'STOPALL', 'UNSUBSCRIBE', 'CANCEL', 'END', 'QUIT', 'OPTOUT', 'REVOKE']);

/** An inbound SMS: a STOP keyword from a number puts it on the opt-out list. Returns whether it opted out. */
export async function applyInboundSms(db: Db, from: string, body: string): Promise<boolean> {
  if (!STOP_WORDS.has(body.trim().toUpperCase())) return false;
  await optOut(db, from, 'stop');
  return true;
}
