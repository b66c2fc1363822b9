import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { getDb } from '@/server/db/client';
import { locationRequests, orders, outboundMessages, subscriptions } from '@/server/db/schema';
import type { E164 } from '@/lib/contracts/phone';
import { call, nextPhone, tokenOf, uniqueEmail } from './accounts';

export { nextPhone } from './accounts';

/** `POST /portal/order` as the pay step sends it; returns the response and its parsed body. */
export async function placeOrder(
  body: Record<string, string | number | boolean>,
  headers: Record<string, string> = {},
) {
  const res = await call('POST', '/portal/order', {
    body: { phone: nextPhone(), requesterName: 'Anna (your sister)', terms: true, startNow: true, ...body },
    headers,
  });
  return { res, body: await res.json() };
}

/**
 * Places an order with `body` (an `email` among it) in `lang` and expects it refused at validation: 422 naming `field`
 * with the localized `msg`, and no order stored for that e-mail (bad input loses nothing and keeps nothing).
 */
export async function expectOrderRefused(
  body: { email: string } & Record<string, string | number | boolean>,
  lang: string,
  field: string,
  msg: string,
): Promise<void> {
  const refused = await placeOrder(body, { 'accept-language': lang });
  expect(refused.res.status).toBe(422);
  expect(refused.body).toMatchObject({ success: 0, msg, field });
  const db = await getDb();
  expect(await db.select().from(orders).where(eq(orders.email, body.email))).toHaveLength(0);
}

/**
 * `POST /spyContent/phoneLocation` (New request on the dashboard) as the signed-in buyer of session `token`, in `lang`;
 * returns the response and its parsed body.
 */
export async function newRequest(token: string, body: Record<string, string>, lang = 'en') {
  const res = await call('POST', '/spyContent/phoneLocation', {
    body,
    headers: { cookie: `token=${token}`, 'accept-language': lang },
  });
  return { res, body: await res.json() };
}

/**
 * Asks for a new request with `body` (a `phone` among it, in E.164 as stored, so that the check of what was stored
 * looks for the right number) and expects it refused at validation: 422 naming `field` (with the localized `msg` when
 * given), and no request stored for that number (bad input keeps nothing).
 */
export async function expectNewRequestRefused(
  token: string,
  body: { phone: string } & Record<string, string>,
  lang: string,
  field: string,
  msg?: string,
): Promise<void> {
  const refused = await newRequest(token, body, lang);
  expect(refused.res.status).toBe(422);
  expect(refused.body).toMatchObject({ success: 0, field, ...(msg ? { msg } : {}) });
  const db = await getDb();
  const stored = await db
    .select()
    .from(locationRequests)
    .where(eq(locationRequests.targetE164, body.phone as E164));
  expect(stored).toHaveLength(0);
}

/** Pays order `code` on the sandbox with test card `card`. */
export function payCard(code: string, card: string) {
  return call('POST', `/portal/order/${code}/sandboxPay`, {
    body: { cardNumber: card, expiry: '12/34', cvc: '123', zip: '10001' },
  });
}

/** Buys a trial with `card` and returns the order code, the session token and the subscription row. */
export async function subscribe(email: string, card = '4242424242424242') {
  const { body } = await placeOrder({ email });
  const pay = await payCard(body.obj.code, card);
  expect(pay.status).toBe(200);
  const db = await getDb();
  const [order] = await db.select().from(orders).where(eq(orders.code, body.obj.code));
  const [sub] = await db.select().from(subscriptions).where(eq(subscriptions.orderId, order.id));
  return { code: order.code as string, token: tokenOf(pay), order, sub, cookie: `token=${tokenOf(pay)}` };
}

/** The subscription row by id. */
export async function subscriptionById(id: string) {
  const [row] = await (await getDb()).select().from(subscriptions).where(eq(subscriptions.id, id));
  return row;
}

/** Outbox e-mails to `to` with template `template`. */
export async function emailsTo(to: string, template?: string) {
  const rows = await (await getDb()).select().from(outboundMessages).where(eq(outboundMessages.recipient, to));
  return template ? rows.filter((r) => r.template === template) : rows;
}

/** Marks the location request of order `orderId` as shared now (the owner consented), so its trial converts. */
export async function markShared(orderId: string) {
  await (
    await getDb()
  )
    .update(locationRequests)
    .set({ firstSharedAt: new Date() })
    .where(eq(locationRequests.orderId, orderId));
}

/** A paid trial (`subscribe`) and its first location request: the request's id and its consent code, read from the SMS. */
export async function trialRequest(tag: string) {
  const bought = await subscribe(uniqueEmail(tag));
  const db = await getDb();
  const [request] = await db.select().from(locationRequests).where(eq(locationRequests.orderId, bought.order.id));
  const [sms] = await db.select().from(outboundMessages).where(eq(outboundMessages.locationRequestId, request.id));
  const code = /\?c=([A-Za-z0-9_-]+)/.exec(sms.body)![1];
  return { ...bought, id: request.id as string, code };
}
