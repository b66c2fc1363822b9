import { desc, eq } from 'drizzle-orm';
import { expect } from 'vitest';
import type { E164 } from '@/lib/contracts/phone';
import { getDb } from '@/server/db/client';
import { outboundMessages } from '@/server/db/schema';
import { API, app, clientHeaders, form } from './api';

/** A unique e-mail address for one test (`tag` names the test in the outbox). */
export function uniqueEmail(tag: string): string {
  return `${tag}.${Date.now()}.${Math.random().toString(36).slice(2, 7)}@example.com`;
}

/** This test file's own block of the IPv6 documentation range, so files sharing the database share no limits. */
const ipBlock = Math.floor(Math.random() * 0xffff).toString(16);
let ipCounter = 0;
/**
 * A fresh documentation-range client IP per call, each in its own /64 (per-IP limits count an IPv6 client by its
 * /64), so per-IP limits of one test do not leak into another.
 */
export function nextIp(): string {
  ipCounter = (ipCounter + 1) % 0x10000;
  return `2001:db8:${ipBlock}:${ipCounter.toString(16)}::1`;
}

/**
 * The numbers nextPhone draws from: San Francisco's 415 area with exchanges 200–999 except 555, 10,000 lines each
 * (every one a valid FIXED_LINE_OR_MOBILE number to libphonenumber). Exchange 555 is left to the numbers tests write
 * out by hand (opted out, blocked, capped), so a drawn number never meets one of them.
 */
const PHONE_EXCHANGES = Array.from({ length: 800 }, (_, i) => 200 + i).filter((exchange) => exchange !== 555);
const PHONE_SPACE = PHONE_EXCHANGES.length * 10_000;
/** Each test file starts at its own random place in the space; files share the database, so they rarely meet. */
let phoneCounter = Math.floor(Math.random() * PHONE_SPACE);
/** A distinct valid US number per call, so per-number SMS caps of one test do not touch another. */
export function nextPhone(): E164 {
  phoneCounter = (phoneCounter + 1) % PHONE_SPACE;
  const exchange = PHONE_EXCHANGES[Math.floor(phoneCounter / 10_000)];
  return `+1415${exchange}${String(phoneCounter % 10_000).padStart(4, '0')}` as E164;
}

/** Calls the API as a browser page would (form body, website_type, a peer IP). */
export function call(
  method: string,
  path: string,
  options: { body?: Record<string, string | number | boolean>; headers?: Record<string, string>; ip?: string } = {},
) {
  return app.request(`${API}${path}`, {
    method,
    headers: {
      ...clientHeaders,
      'x-peer-ip': options.ip ?? nextIp(),
      ...(options.body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      ...options.headers,
    },
    body: options.body ? form(options.body) : undefined,
  });
}

/** The session token set by a response's `token` cookie. */
export function tokenOf(res: Response): string {
  const token = /(?:^|, )token=([^;]+)/.exec(res.headers.get('set-cookie') ?? '')?.[1];
  expect(token).toBeTruthy();
  return token!;
}

/** The newest e-mail to `to` in the outbox. */
export async function latestEmail(to: string) {
  const db = await getDb();
  const [row] = await db
    .select()
    .from(outboundMessages)
    .where(eq(outboundMessages.recipient, to))
    .orderBy(desc(outboundMessages.createdAt))
    .limit(1);
  return row;
}

/**
 * Buys a trial as a visitor does (order + sandbox payment) and returns the account's e-mail, the payment session's
 * token and the temporary password read from the credentials e-mail.
 */
export async function buyAccount(email: string) {
  const order = await call('POST', '/portal/order', {
    body: { email, phone: nextPhone(), requesterName: 'Anna (your sister)', terms: true, startNow: true },
  });
  const { obj } = await order.json();
  const pay = await call('POST', `/portal/order/${obj.code}/sandboxPay`, {
    body: { cardNumber: '4242424242424242', expiry: '12/34', cvc: '123', zip: '10001' },
  });
  expect(pay.status).toBe(200);
  const mail = await latestEmail(email.toLowerCase());
  const temporaryPassword = /Temporary password: (\S+)/.exec(mail.body)![1];
  return { email, token: tokenOf(pay), temporaryPassword };
}

/** Signs in and returns the response. */
export function signIn(email: string, password: string, ip?: string) {
  return call('POST', '/admin/userSession', { body: { email, password }, ip });
}

/** Buys an account and replaces its temporary password with `password` (a full account). */
export async function account(tag: string, password = 'correct horse battery') {
  const bought = await buyAccount(`${tag}.${Date.now()}@example.com`);
  const res = await call('PUT', '/admin/user/password', {
    body: { password: bought.temporaryPassword, newPassword: password },
    headers: { cookie: `token=${bought.token}` },
  });
  expect(res.status).toBe(200);
  return { ...bought, password };
}
