import { describe, expect, it } from 'vitest';
import { formatAgo, formatUntil } from '@/lib/intl-format';
import { waitingState, type RequestRow } from '@/lib/request-state';

const NOW = Date.parse('2026-11-24T13:00:00Z');
const row = (over: Partial<RequestRow> = {}): RequestRow => ({
  status: 'sms_sent',
  smsStatus: 'sent',
  smsSentAt: '2026-11-24T12:58:00Z',
  createdAt: '2026-11-24T12:57:30Z',
  expiresAt: '2026-11-24T14:05:00Z',
  locationDenied: false,
  ...over,
});

describe('the state line of a request waiting for its owner', () => {
  it('a sent SMS: since it was sent, until the link expires', () => {
    expect(waitingState(row(), NOW)).toEqual({
      kind: 'sent',
      since: '2026-11-24T12:58:00Z',
      until: '2026-11-24T14:05:00Z',
    });
    expect(formatAgo('2026-11-24T12:58:00Z', 'en', NOW)).toBe('2 minutes ago');
    expect(formatAgo('2026-11-24T12:58:00Z', 'es', NOW)).toBe('hace 2 minutos');
    expect(formatAgo('2026-11-24T12:58:00Z', 'id', NOW)).toBe('2 menit yang lalu');
  });

  it('an SMS still in the outbox is "sending"; a delivered one says so; an opened link waits for the choice', () => {
    expect(waitingState(row({ status: 'queued', smsStatus: 'queued', smsSentAt: null }), NOW)?.kind).toBe('sending');
    expect(waitingState(row({ status: 'queued', smsStatus: null, smsSentAt: null }), NOW)?.kind).toBe('sending');
    expect(waitingState(row({ smsStatus: 'delivered' }), NOW)?.kind).toBe('delivered');
    expect(waitingState(row({ status: 'opened' }), NOW)?.kind).toBe('opened');
  });

  it('is not shown where the badge tells the story: failed SMS, refused location, answered, ended, link expired', () => {
    expect(waitingState(row({ smsStatus: 'failed' }), NOW)).toBeNull();
    expect(waitingState(row({ status: 'opened', locationDenied: true }), NOW)).toBeNull();
    for (const status of ['sharing', 'stopped', 'declined', 'expired'] as const) {
      expect(waitingState(row({ status }), NOW)).toBeNull();
    }
    expect(waitingState(row({ expiresAt: '2026-11-24T12:59:59Z' }), NOW)).toBeNull();
  });
});

describe('formatUntil: the link expiry in the reader’s time zone', () => {
  it('today: the time with its zone; another day: the date too', () => {
    expect(formatUntil('2026-11-24T14:05:00Z', 'en', NOW, 'UTC')).toBe('02:05 PM UTC');
    expect(formatUntil('2026-11-24T14:05:00Z', 'es', NOW, 'Europe/Madrid')).toBe('15:05 CET');
    expect(formatUntil('2026-11-24T14:05:00Z', 'id', NOW, 'Asia/Jakarta')).toBe('21.05 WIB');
    // 14:05 UTC on the 25th is tomorrow in UTC: the date is named.
    expect(formatUntil('2026-11-25T14:05:00Z', 'en', NOW, 'UTC')).toBe('Nov 25, 2026, 02:05 PM UTC');
    // 23:30 UTC is already the next day in Jakarta (UTC+7).
    expect(formatUntil('2026-11-24T23:30:00Z', 'id', NOW, 'Asia/Jakarta')).toMatch(/25 Nov 2026/);
  });
});
