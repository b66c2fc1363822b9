import 'server-only';
import { and, desc, eq, gte, lt, sql } from 'drizzle-orm';
import { FUNNEL_STAGES, type FunnelEvent } from '../../lib/tracking/funnel';
import { splitLocale } from '../../lib/routing/rules';
import type { Db, Tx } from '../db/client';
import { adEvents, buttonClicks, locationRequests, operationLogs, orders, type Attribution } from '../db/schema';
import { env } from '../env';

/** A browser event as `POST /operationLog` received it (docs/rules.md#entities), after validation. */
export type BrowserEventInput = {
  eventCode: string;
  currDocument: string;
  domain: string;
  trackId: string | null;
  phoneOs: number | null;
  appVersion: string | null;
  channel: string;
  keyword: string | null;
  gclid: string | null;
  wbraid: string | null;
};

/** Stores a browser event; the locale is read from the page path's prefix (docs/rules.md#routes). */
export async function recordBrowserEvent(db: Db, input: BrowserEventInput): Promise<void> {
  const path = input.currDocument.split('?')[0] ?? '/';
  await db.insert(operationLogs).values({ ...input, locale: splitLocale(path).locale, source: 'browser' });
}

/** A button click as `POST /operationLog/protal` received it (docs/rules.md#entities, #api), validated: `os` 0, 1 or 2. */
export type ButtonClickInput = { btnId: string; apkChannel: string; os: 0 | 1 | 2 };

/** Stores one button click (no person, no session: the tracker may be called from another origin). */
export async function recordButtonClick(db: Db, input: ButtonClickInput): Promise<void> {
  await db.insert(buttonClicks).values(input);
}

/**
 * Writes a server-witnessed funnel event (`paid`, `consent_opened`, `shared`) for `orderId`, with the order's
 * locale and attribution (channel 'SEO' when it had none), in the caller's transaction. No order, no event.
 */
export async function recordOrderEvent(tx: Tx | Db, eventCode: FunnelEvent, orderId: string | null): Promise<void> {
  if (!orderId) return;
  const [order] = await tx
    .select({ code: orders.code, locale: orders.locale, attribution: orders.attribution })
    .from(orders)
    .where(eq(orders.id, orderId));
  if (!order) return;
  const a: Attribution = order.attribution ?? {};
  const origin = new URL(env().APP_ORIGIN);
  await tx.insert(operationLogs).values({
    eventCode,
    currDocument: `/orders/${order.code}`,
    domain: origin.host,
    trackId: a.trackId ?? null,
    locale: order.locale,
    channel: a.channel || 'SEO',
    keyword: a.keyword ?? null,
    gclid: a.gclid ?? null,
    wbraid: a.wbraid ?? null,
    source: 'server',
  });
}

/**
 * The order a location request counts for in the funnel: its own order, else the buyer's latest paid order (a
 * request made later from the dashboard).
 */
export async function recordRequestEvent(tx: Tx | Db, eventCode: FunnelEvent, requestId: string): Promise<void> {
  const [request] = await tx
    .select({ orderId: locationRequests.orderId, userId: locationRequests.userId })
    .from(locationRequests)
    .where(eq(locationRequests.id, requestId));
  if (!request) return;
  let orderId = request.orderId;
  if (!orderId) {
    const [latest] = await tx
      .select({ id: orders.id })
      .from(orders)
      .where(and(eq(orders.userId, request.userId), eq(orders.status, 'paid')))
      .orderBy(desc(orders.paidAt))
      .limit(1);
    orderId = latest?.id ?? null;
  }
  await recordOrderEvent(tx, eventCode, orderId);
}

/**
 * Deletes tracking rows older than `days` (TRACKING_RETENTION_DAYS): operation-log events, button clicks, and ad
 * events, which hold the visitor's IP address and user agent. Orders keep their attribution. Returns rows deleted.
 */
export async function pruneTracking(db: Db, days: number, now = new Date()): Promise<number> {
  const before = new Date(now.getTime() - days * 86_400_000);
  const deleted = await Promise.all([
    db.delete(operationLogs).where(lt(operationLogs.createdAt, before)).returning({ id: operationLogs.id }),
    db.delete(buttonClicks).where(lt(buttonClicks.createdAt, before)).returning({ id: buttonClicks.id }),
    db.delete(adEvents).where(lt(adEvents.createdAt, before)).returning({ id: adEvents.id }),
  ]);
  return deleted.reduce((sum, rows) => sum + rows.length, 0);
}

/** The stages of the funnel report, in order (lib/tracking/funnel.ts, which the console's funnel tab reads too). */
export { FUNNEL_STAGES };

export type FunnelRow = { locale: string; channel: string; counts: Record<(typeof FUNNEL_STAGES)[number], number> };

/**
 * Visitors per stage, per locale and channel, over the `days` before `now`: a visitor is an event token (an event
 * without one counts alone), so a reload is one visit and a renewal is not a second payment. Rows sorted by
 * visits, most first.
 */
export async function funnelReport(db: Db, days: number, now = new Date()): Promise<FunnelRow[]> {
  const since = new Date(now.getTime() - days * 86_400_000);
  const rows = await db
    .select({
      locale: operationLogs.locale,
      channel: operationLogs.channel,
      eventCode: operationLogs.eventCode,
      visitors: sql<number>`count(distinct coalesce(${operationLogs.trackId}, ${operationLogs.id}::text))::int`,
    })
    .from(operationLogs)
    .where(and(gte(operationLogs.createdAt, since), sql`${operationLogs.createdAt} <= ${now.toISOString()}`))
    .groupBy(operationLogs.locale, operationLogs.channel, operationLogs.eventCode);
  const byKey = new Map<string, FunnelRow>();
  for (const r of rows) {
    if (!(FUNNEL_STAGES as readonly string[]).includes(r.eventCode)) continue;
    const key = `${r.locale}\u0000${r.channel}`;
    let row = byKey.get(key);
    if (!row) {
      const counts = Object.fromEntries(FUNNEL_STAGES.map((s) => [s, 0])) as FunnelRow['counts'];
      row = { locale: r.locale, channel: r.channel, counts };
      byKey.set(key, row);
    }
    row.counts[r.eventCode as (typeof FUNNEL_STAGES)[number]] = r.visitors;
  }
  return [...byKey.values()].sort(
    (a, b) =>
      b.counts.landing_view - a.counts.landing_view ||
      a.locale.localeCompare(b.locale) ||
      a.channel.localeCompare(b.channel),
  );
}

/** The report as a text table: one line per locale and channel, counts with the share of the previous stage. */
export function formatFunnel(rows: FunnelRow[], days: number): string {
  const head = ['locale', 'channel', 'visits', 'locate submitted', 'paid', 'consent opened', 'shared'];
  const lines = rows.map((r) => {
    const counts = FUNNEL_STAGES.map((s, i) => {
      const n = r.counts[s];
      if (i === 0) return String(n);
      const prev = r.counts[FUNNEL_STAGES[i - 1]];
      return prev ? `${n} (${Math.round((n / prev) * 100)}%)` : String(n);
    });
    return [r.locale, r.channel, ...counts];
  });
  const table = [head, ...lines];
  const widths = head.map((_, i) => Math.max(...table.map((l) => l[i]!.length)));
  const fmt = (l: string[]) =>
    l
      .map((c, i) => c.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  const title = `Funnel, last ${days} day${days === 1 ? '' : 's'} (visitors per stage; % of the previous stage)`;
  if (!rows.length) return `${title}\nNo events.`;
  return [title, fmt(head), ...lines.map(fmt)].join('\n');
}
