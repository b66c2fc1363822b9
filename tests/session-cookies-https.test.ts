import type { E164 } from '@/lib/contracts/phone';
import { eq } from 'drizzle-orm';
import { NextRequest } from 'next/server';
import { Secret, TOTP } from 'otpauth';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { proxy } from '../proxy';
import { getDb } from '@/server/db/client';
import { locationRequests, users } from '@/server/db/schema';
import { randomToken, sha256 } from '@/server/services/tokens';
import { hashPassword } from '@/server/services/accounts';
import { createOperator } from '@/server/services/ops';
import { API, app, clientHeaders } from './support/api';
import { call, nextIp, uniqueEmail } from './support/accounts';

// On an https origin the session cookies carry the `__Host-` prefix (RFC 6265bis §4.1.3.2): Secure, Path=/, no
// Domain, so no sibling subdomain or plain-http page can plant one. Everything that reads them reads that name only.
// This file runs as an https deployment (settings are read on first use).
vi.hoisted(() => {
  process.env.APP_ORIGIN = 'https://chamspy.example';
});

afterEach(() => vi.unstubAllGlobals());

/** The `Set-Cookie` lines of a response. */
const setCookies = (res: Response) => res.headers.getSetCookie();
/** The one `Set-Cookie` line for `name`, which must exist. */
function cookieLine(res: Response, name: string): string {
  const lines = setCookies(res).filter((l) => l.startsWith(`${name}=`));
  expect(lines).toHaveLength(1);
  return lines[0];
}

/** A buyer account with a known password, made in the database (the purchase path is tested elsewhere). */
async function buyer(tag: string) {
  const email = uniqueEmail(tag).toLowerCase();
  const password = 'correct horse battery';
  await (await getDb()).insert(users).values({ email, passwordHash: await hashPassword(password), paymentCount: 1 });
  return { email, password };
}

describe('session cookies on an https origin', () => {
  it('signs a buyer in with __Host-token (Secure, Path=/, no Domain) and accepts only that name', async () => {
    const b = await buyer('host-buyer');
    const res = await call('POST', '/admin/userSession', { body: { email: b.email, password: b.password } });
    expect(res.status).toBe(200);
    const line = cookieLine(res, '__Host-token');
    expect(line).toMatch(/; Path=\/(;|$)/);
    expect(line).toMatch(/; Secure(;|$)/);
    expect(line).toMatch(/; HttpOnly(;|$)/);
    expect(line).toMatch(/; SameSite=Lax(;|$)/);
    expect(line).not.toMatch(/Domain=/i);
    expect(setCookies(res).some((l) => l.startsWith('token='))).toBe(false);
    expect(cookieLine(res, 'userInfo')).toMatch(/; Secure(;|$)/);
    const token = /^__Host-token=([^;]+)/.exec(line)![1];

    const current = (cookie: string) => call('GET', '/admin/userSession/current', { headers: { cookie } });
    expect((await current(`__Host-token=${token}`)).status).toBe(200);
    // The plain name, which a sibling subdomain could set, is not read on an https origin.
    expect((await current(`token=${token}`)).status).toBe(401);

    const out = await call('DELETE', '/admin/userSession', { headers: { cookie: `__Host-token=${token}` } });
    expect(out.status).toBe(200);
    const cleared = cookieLine(out, '__Host-token');
    expect(cleared).toMatch(/^__Host-token=;/);
    expect(cleared).toMatch(/Max-Age=0/);
    expect(cleared).toMatch(/; Secure(;|$)/);
    expect(cleared).toMatch(/; Path=\/(;|$)/);
    expect((await current(`__Host-token=${token}`)).status).toBe(401);
  });

  it('signs an operator in with __Host-ops_token and accepts only that name', async () => {
    const email = uniqueEmail('host-op');
    const created = await createOperator(await getDb(), email);
    const code = new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(created.secret) });
    const ops = (method: string, path: string, cookie?: string, body?: unknown) =>
      app.request(`${API}/ops${path}`, {
        method,
        headers: {
          ...clientHeaders,
          'x-peer-ip': nextIp(),
          ...(cookie ? { cookie } : {}),
          ...(body ? { 'content-type': 'application/json' } : {}),
        },
        body: body ? JSON.stringify(body) : undefined,
      });
    const res = await ops('POST', '/session', undefined, { email, password: created.password, code: code.generate() });
    expect(res.status).toBe(200);
    const line = cookieLine(res, '__Host-ops_token');
    expect(line).toMatch(/; Path=\/(;|$)/);
    expect(line).toMatch(/; Secure(;|$)/);
    expect(line).toMatch(/; HttpOnly(;|$)/);
    expect(line).toMatch(/; SameSite=Strict(;|$)/);
    expect(line).not.toMatch(/Domain=/i);
    expect(setCookies(res).some((l) => l.startsWith('ops_token='))).toBe(false);
    const token = /^__Host-ops_token=([^;]+)/.exec(line)![1];

    expect((await ops('GET', '/session', `__Host-ops_token=${token}`)).status).toBe(200);
    expect((await ops('GET', '/session', `ops_token=${token}`)).status).toBe(401);
    const out = await ops('DELETE', '/session', `__Host-ops_token=${token}`);
    expect(out.status).toBe(200);
    expect(cookieLine(out, '__Host-ops_token')).toMatch(/^__Host-ops_token=;.*Max-Age=0.*; Secure/);
  });

  it('the proxy checks the __Host-token cookie, ignores a plain token, and clears a dead one with its attributes', async () => {
    const fetched: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (_url: URL, init: RequestInit) => {
        fetched.push(new Headers(init.headers).get('_chamspy_token') ?? '');
        return new Response('{}', { status: 401 });
      }),
    );
    const visit = (cookie: string) =>
      proxy(new NextRequest('https://chamspy.example/gps-locator/', { headers: { cookie } }));

    const dead = await visit('__Host-token=revoked-session');
    expect(fetched).toEqual(['revoked-session']);
    const cleared = dead.headers.getSetCookie().find((l) => l.startsWith('__Host-token='))!;
    expect(cleared).toMatch(/Max-Age=0/);
    expect(cleared).toMatch(/Secure/i);
    expect(cleared).toMatch(/Path=\//);

    const plain = await visit('token=planted-by-a-subdomain');
    expect(fetched).toEqual(['revoked-session']);
    expect(plain.headers.getSetCookie()).toEqual([]);
  });
});

describe('the safety centre cookie on an https origin', () => {
  it('is __Host-safety_token (Secure, HttpOnly, SameSite=Strict, 30 minutes) and only that name is read', async () => {
    const db = await getDb();
    const { email } = await buyer('host-safety');
    const [user] = await db.select().from(users).where(eq(users.email, email));
    const code = randomToken(16);
    await db.insert(locationRequests).values({
      userId: user.id,
      targetE164: '+14155559876' as E164,
      locale: 'en',
      consentCodeHash: sha256(code),
      smsText: 'test',
      expiresAt: new Date(Date.now() + 3600_000),
    });
    const res = await call('POST', '/safety/session/consent', { body: { code } });
    expect(res.status).toBe(200);
    const line = cookieLine(res, '__Host-safety_token');
    expect(line).toMatch(/; Path=\/(;|$)/);
    expect(line).toMatch(/; Secure(;|$)/);
    expect(line).toMatch(/; HttpOnly(;|$)/);
    expect(line).toMatch(/; SameSite=Strict(;|$)/);
    expect(line).toMatch(/; Max-Age=1800(;|$)/);
    expect(line).not.toMatch(/Domain=/i);
    const token = /^__Host-safety_token=([^;]+)/.exec(line)![1];
    const read = (cookie: string) => call('GET', '/safety', { headers: { cookie } });
    expect((await read(`__Host-safety_token=${token}`)).status).toBe(200);
    expect((await read(`safety_token=${token}`)).status).toBe(401);
    // A buyer's session is no safety-centre session.
    expect((await read(`__Host-token=${token}`)).status).toBe(401);
  });
});
