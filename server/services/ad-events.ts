import 'server-only';
import { and, eq, lt, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { adEvents } from '../db/schema';
import { env, type Env } from '../env';

/** An ad conversion event as `POST /api_{hash}` received it (docs/rules.md#entities), validated. `eventTime` in seconds. */
export type AdEventInput = {
  eventName: string;
  eventTime: number;
  actionSource: 'website';
  userData: { fbc?: string; fbp?: string };
  eventSourceUrl?: string;
  testEventCode?: string;
  clientIp: string | null;
  clientUserAgent: string | null;
};

/** Whether ad events are forwarded: both META_PIXEL_ID and META_CAPI_TOKEN set. */
export function metaConfigured(e: Env = env()): boolean {
  return !!(e.META_PIXEL_ID && e.META_CAPI_TOKEN);
}

/** Stores an ad event; `queued` for forwarding when Meta is configured, else `not_configured`. Returns its id. */
export async function recordAdEvent(db: Db, input: AdEventInput): Promise<{ id: string; forward: boolean }> {
  const forward = metaConfigured();
  const [row] = await db
    .insert(adEvents)
    .values({
      eventName: input.eventName,
      eventTime: new Date(input.eventTime * 1000),
      actionSource: input.actionSource,
      userData: input.userData,
      eventSourceUrl: input.eventSourceUrl ?? null,
      testEventCode: input.testEventCode ?? null,
      clientIp: input.clientIp,
      clientUserAgent: input.clientUserAgent,
      forwardStatus: forward ? 'queued' : 'not_configured',
    })
    .returning({ id: adEvents.id });
  return { id: row!.id, forward };
}

/**
 * Sends one stored event to the Meta Conversions API (`POST {META_GRAPH_URL}/{pixel}/events?access_token=…`, body
 * `{ data: [event], test_event_code? }`, Meta "Using the API" docs) and records the outcome. Throws on a failed
 * attempt so the job retries; after the last attempt the row stays `failed` with the error.
 */
export async function forwardAdEvent(db: Db, id: string, fetchImpl: typeof fetch = fetch): Promise<void> {
  const e = env();
  const [row] = await db.select().from(adEvents).where(eq(adEvents.id, id));
  if (!row || row.forwardStatus === 'sent' || !metaConfigured(e)) return;
  const event = {
    event_name: row.eventName,
    event_time: Math.floor(row.eventTime.getTime() / 1000),
    action_source: row.actionSource,
    event_id: row.id,
    ...(row.eventSourceUrl ? { event_source_url: row.eventSourceUrl } : {}),
    user_data: {
      ...(row.userData.fbc ? { fbc: row.userData.fbc } : {}),
      ...(row.userData.fbp ? { fbp: row.userData.fbp } : {}),
      ...(row.clientIp ? { client_ip_address: row.clientIp } : {}),
      ...(row.clientUserAgent ? { client_user_agent: row.clientUserAgent } : {}),
    },
  };
  const url = `${e.META_GRAPH_URL}/${e.META_PIXEL_ID}/events?access_token=${encodeURIComponent(e.META_CAPI_TOKEN!)}`;
  let error: string | null = null;
  try {
    const res = await fetchImpl(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ data: [event], ...(row.testEventCode ? { test_event_code: row.testEventCode } : {}) }),
      signal: AbortSignal.timeout(10_000),
    });
    if (!res.ok) error = `HTTP ${res.status}: ${(await res.text()).slice(0, 300)}`;
  } catch (err) {
    error = (err as Error).message;
  }
  await db
    .update(adEvents)
    .set({
      forwardStatus: error ? 'failed' : 'sent',
      forwardAttempts: sql`${adEvents.forwardAttempts} + 1`,
      lastError: error,
      forwardedAt: error ? null : new Date(),
    })
    .where(eq(adEvents.id, id));
  if (error) throw new Error(`Meta Conversions API: ${error}`);
}

/** How long a queued ad event may wait for its first forwarding attempt before the sweep enqueues it again, ms. */
export const AD_EVENT_ENQUEUE_GRACE_MS = 5 * 60_000;

/**
 * Ids of up to `limit` ad events still `queued` with no forwarding attempt, stored more than
 * AD_EVENT_ENQUEUE_GRACE_MS before `now`: their enqueue after the insert was lost (the once-a-minute sweep enqueues
 * them again).
 */
export async function unsentAdEventIds(db: Db, now = new Date(), limit = 100): Promise<string[]> {
  const rows = await db
    .select({ id: adEvents.id })
    .from(adEvents)
    .where(
      and(
        eq(adEvents.forwardStatus, 'queued'),
        eq(adEvents.forwardAttempts, 0),
        lt(adEvents.createdAt, new Date(now.getTime() - AD_EVENT_ENQUEUE_GRACE_MS)),
      ),
    )
    .limit(limit);
  return rows.map((r) => r.id);
}
