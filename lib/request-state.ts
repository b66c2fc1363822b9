import type { RequestStatus } from './contracts/locations';

/** What My locations knows of one request (`GET /spyContent` row). */
export type RequestRow = {
  status: RequestStatus;
  /** The consent SMS's status, null before it is written. */
  smsStatus: string | null;
  /** When the provider took the SMS (ISO 8601), null while it waits. */
  smsSentAt: string | null;
  /** When the consent link stops working (ISO 8601). */
  expiresAt: string;
  locationDenied: boolean;
  /** When the request was made (ISO 8601). */
  createdAt: string;
};

/**
 * Where a request waiting for its owner stands, for the line "SMS sent 2 min ago · waiting for the owner · the link
 * is valid until 14:05": `sending` while the SMS waits in the outbox, `sent` / `delivered` once the provider took it
 * or the carrier confirmed it (`since`: when it was sent, else when the request was made), `opened` when the owner
 * opened the link but has not chosen yet. `until` is the link's expiry. Null for every other state — sharing,
 * stopped, declined, expired, a failed SMS, an owner whose browser refused the location, or a link already past its
 * expiry at `now` (ms) — which the badge and its own texts tell.
 */
export function waitingState(
  row: RequestRow,
  now: number,
): { kind: 'sending' | 'sent' | 'delivered' | 'opened'; since: string; until: string } | null {
  if (Date.parse(row.expiresAt) <= now) return null;
  if (row.smsStatus === 'failed') return null;
  const since = row.smsSentAt ?? row.createdAt;
  if (row.status === 'opened') return row.locationDenied ? null : { kind: 'opened', since, until: row.expiresAt };
  if (row.status !== 'queued' && row.status !== 'sms_sent') return null;
  if (row.smsStatus === 'delivered') return { kind: 'delivered', since, until: row.expiresAt };
  if (row.smsStatus === 'sent' || row.status === 'sms_sent') return { kind: 'sent', since, until: row.expiresAt };
  return { kind: 'sending', since: row.createdAt, until: row.expiresAt };
}
