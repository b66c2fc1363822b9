import 'server-only';
import { and, eq, inArray, isNotNull, lt, or, isNull, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { locationRequests, orders, outboundMessages, users } from '../../db/schema';
import { env } from '../../env';
import { pickLanguage, translate } from '../../i18n';
import { formatPhone } from '../../../lib/phone-format';
import { localeUrl } from '../../../i18n/routing';
import { LIVE_STATES } from '../../../lib/request-machine';
import { pushDeviceCount, queueEmail, type EmailTemplate, type PushFallback } from '../messaging';

/**
 * What a buyer is told about a request without having the map open (docs/rules.md#live-location): the owner shared,
 * declined or stopped, or a share went silent for SILENCE_ALERT_MS.
 */
export const BUYER_ALERTS = ['shared', 'declined', 'stopped', 'silent'] as const;
export type BuyerAlert = (typeof BUYER_ALERTS)[number];

/** A live share with no fix or heartbeat for this long (ms) is announced once as "no update for 5 minutes". */
export const SILENCE_ALERT_MS = 5 * 60_000;

/** The e-mail of each alert: the default channel, and the fallback when no device takes a push. */
export const ALERT_EMAIL: Record<BuyerAlert, EmailTemplate> = {
  shared: 'sharing-started',
  declined: 'sharing-declined',
  stopped: 'sharing-stopped',
  silent: 'sharing-silent',
};

/** The push notification the service worker shows (public/sw.js): texts in the buyer's language and where a tap goes. */
export type PushPayload = { title: string; body: string; url: string; tag: string };

/**
 * Queues `kind` for the buyer of `request` inside `tx` (the transaction of the change it announces, so the alert exists
 * exactly when the change does), in the language of the buyer's order:
 * - when the buyer turned on notifications on some device (services/messaging/web-push.ts), an outbox row of channel
 *   `push`: its body is the PushPayload, its payload the e-mail to send instead if no device takes it
 *   (services/messaging/outbox.ts);
 * - otherwise the e-mail (ALERT_EMAIL), e-mail being the default.
 * Returns the id of the outbox row it wrote (sent when the transaction commits).
 */
export async function alertBuyer(
  tx: Tx,
  request: { id: string; userId: string; orderId: string | null; targetE164: string },
  kind: BuyerAlert,
): Promise<string> {
  const [buyer] = await tx.select({ email: users.email }).from(users).where(eq(users.id, request.userId));
  const [order] = request.orderId
    ? await tx.select({ locale: orders.locale }).from(orders).where(eq(orders.id, request.orderId))
    : [];
  const locale = order?.locale ?? 'en';
  const link = localeUrl(env().APP_ORIGIN, locale, `/map/?id=${request.id}`);
  const params = { phone: request.targetE164, link };
  const fallback: PushFallback = { to: buyer.email, template: ALERT_EMAIL[kind], params };
  if ((await pushDeviceCount(tx, request.userId)) === 0) return queueEmail(tx, { ...fallback, locale });
  const lang = pickLanguage(locale);
  const words = { phone: formatPhone(request.targetE164) };
  const payload: PushPayload = {
    title: translate(lang, `Push.${kind}Title`, words),
    body: translate(lang, `Push.${kind}Body`, words),
    url: link,
    // One notification per request on the device: a newer alert replaces the older.
    tag: `request-${request.id}`,
  };
  const [row] = await tx
    .insert(outboundMessages)
    .values({
      channel: 'push',
      recipient: request.userId,
      template: `alert-${kind}`,
      locale,
      payload: { kind, requestId: request.id, fallback },
      subject: payload.title,
      body: JSON.stringify(payload),
    })
    .returning({ id: outboundMessages.id });
  return row.id;
}

/** The alert a buyer gets when a request reaches `state` by the owner's hand, if any (lib/request-machine.ts). */
export function alertFor(state: string | null, wasLive: boolean): BuyerAlert | null {
  if (state === 'sharing') return 'shared';
  if (state === 'declined') return 'declined';
  if (state === 'stopped') return 'stopped';
  // A report reads to the buyer as declined, or stopped when it ended a share (buyerState).
  if (state === 'reported') return wasLive ? 'stopped' : 'declined';
  return null;
}

/**
 * The minute upkeep's part: every live share (sharing or paused) whose owner's page has said nothing for
 * SILENCE_ALERT_MS is announced to its buyer once per silence ("no update for 5 minutes"). Claimed with one conditional
 * UPDATE (`silence_alerted_for` takes the `owner_seen_at` it announces), so two upkeep runs at once alert once, and a
 * later fix or heartbeat (a newer `owner_seen_at`) makes the next silence announce again. The alerts are queued in the
 * same transaction. Returns how many were alerted.
 */
export async function alertSilentShares(db: Db, now = new Date()): Promise<number> {
  return db.transaction(async (tx) => {
    const claimed = await tx
      .update(locationRequests)
      .set({ silenceAlertedFor: sql`${locationRequests.ownerSeenAt}`, updatedAt: sql`${locationRequests.updatedAt}` })
      .where(
        and(
          inArray(locationRequests.status, [...LIVE_STATES]),
          isNotNull(locationRequests.ownerSeenAt),
          lt(locationRequests.ownerSeenAt, new Date(now.getTime() - SILENCE_ALERT_MS)),
          or(
            isNull(locationRequests.silenceAlertedFor),
            lt(locationRequests.silenceAlertedFor, locationRequests.ownerSeenAt),
          ),
        ),
      )
      .returning();
    for (const request of claimed) await alertBuyer(tx, request, 'silent');
    return claimed.length;
  });
}
