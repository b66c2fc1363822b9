import fc from 'fast-check';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { describeError } from '@/server/api/app';
import { Secret, TOTP } from 'otpauth';
import { getDb } from '@/server/db/client';
import { log } from '@/server/observability/log';
import { createOperator } from '@/server/services/ops';
import { app, clientHeaders } from './support/api';

/** The OpenAPI paths include the `/api_f/v1` base. */
const ORIGIN = 'http://localhost';
import { nextIp } from './support/accounts';

// Whatever a client sends in a body or a path parameter, the API answers in its envelope and never 5xx.

type Schema = { type?: string; enum?: unknown[]; format?: string; minimum?: number; anyOf?: Schema[] };
type Operation = {
  method: string;
  path: string;
  fields: Record<string, Schema>;
};

/** Values that pass each field's own check, so that one poisoned field reaches the code behind the validation. */
const PLAUSIBLE: Record<string, unknown> = {
  email: 'fuzz@example.com',
  phone: '+34612345678',
  password: 'correct horse battery',
  newPassword: 'another good passphrase',
  code: '123456',
  name: 'Ann Example',
  message: 'A message long enough for the contact form.',
  cardNumber: '4242424242424242',
  expiry: '12/34',
  cvc: '123',
  zip: '10001',
  latitude: 1.5,
  longitude: 2.5,
  accuracy: 10,
  minutes: 15,
  currDocument: '/',
  domain: 'localhost',
  eventCode: 'page_view',
  btnId: 'pay',
  eventName: 'PageView',
  eventTime: 1_700_000_000,
};

/** A value the field accepts: from its enum, its type, or the table above. */
function plausible(name: string, schema: Schema): unknown {
  if (name in PLAUSIBLE) return PLAUSIBLE[name];
  const s = schema.anyOf?.[0] ?? schema;
  if (s.enum?.length) return s.enum[0];
  if (s.type === 'boolean') return true;
  if (s.type === 'number' || s.type === 'integer') return s.minimum ?? 1;
  if (s.format === 'email') return 'fuzz@example.com';
  if (s.format === 'uuid') return '01890f3e-8d4a-7cc1-9b2e-3b7a1c2d4e5f';
  return 'plausible-value-1234';
}

/** Every operation of the API's own OpenAPI document, with the body fields its schema names. */
function operations(): Operation[] {
  const doc = app.getOpenAPI31Document({ openapi: '3.1.0', info: { title: 'fuzz', version: '1' } });
  const list: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const [method, op] of Object.entries(item as Record<string, { requestBody?: unknown }>)) {
      if (!['get', 'post', 'put', 'delete'].includes(method)) continue;
      const content = (
        op.requestBody as { content?: Record<string, { schema?: { properties?: Record<string, Schema> } }> }
      )?.content;
      const schema = content?.['application/json']?.schema ?? content?.['application/x-www-form-urlencoded']?.schema;
      list.push({ method: method.toUpperCase(), path, fields: schema?.properties ?? {} });
    }
  }
  return list;
}

/** Text attackers send: NUL, lone surrogates, broken %-encoding (sent raw in paths), controls, long and non-Latin. */
const nasty = fc.oneof(
  fc.constantFrom('\0', 'a\0b', '\uD800', 'x\uDFFFy', '%', '%E0%A4%A', '%00', '%ZZ', '../..', '\u202E', '\r\n', ''),
  fc.constantFrom('a%ZZb', '%ED%A0%80', '%C0%80', '%F4%90%80%80', 'x%', '%%41'),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ maxLength: 300 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
);

/** A JSON value of any shape for a body field. */
const anyValue = fc.oneof(
  nasty,
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(nasty, { maxLength: 3 }),
  fc.dictionary(nasty, nasty, { maxKeys: 2 }),
);

/** A body: every field plausible, then some of them (or an extra field) replaced by anything at all. */
function bodyOf(fields: Record<string, Schema>) {
  const base = Object.fromEntries(Object.entries(fields).map(([name, schema]) => [name, plausible(name, schema)]));
  const poisoned = fc.oneof(
    anyValue,
    fc
      .constantFrom(...Object.values(base).map(String), 'plausible')
      .chain((v) => fc.constantFrom(`${v}\0`, `${v}\uD800`, `\uDC00${v}`)),
  );
  return fc
    .dictionary(fc.constantFrom(...Object.keys(fields), 'extra', 'keyword', 'apkChannel'), poisoned, { maxKeys: 3 })
    .map((changes) => ({ ...base, ...changes }));
}

/** A path parameter as it goes on the wire: sometimes %-encoded, sometimes raw (malformed encodings included). */
const pathValue = fc
  .tuple(
    fc.oneof(nasty, fc.constantFrom('abcdefghijklmnop1234', '01890f3e-8d4a-7cc1-9b2e-3b7a1c2d4e5f', 'a@example.com')),
    fc.boolean(),
  )
  .map(([v, encode]) => (encode && v.isWellFormed() ? encodeURIComponent(v) : v));

/** A form field's value as a browser would send it. */
const formValue = (v: unknown) => (v !== null && typeof v === 'object' ? JSON.stringify(v) : String(v));

/**
 * How a body goes on the wire: JSON, form-encoded, multipart, JSON sent as `text/plain` (a route that parses JSON
 * whatever the type must still be checked), or JSON with one field nested `depth` deep (arrays or objects).
 */
const encoding = fc.oneof(
  fc.constantFrom('json', 'form', 'multipart', 'text' as const),
  fc.record({ depth: fc.integer({ min: 20, max: 6000 }), objects: fc.boolean() }),
);

/** `value` wrapped `depth` times in arrays or in `{"a": …}` objects, as JSON text. */
function nested(value: unknown, depth: number, objects: boolean): string {
  const [open, close] = objects ? ['{"a":', '}'] : ['[', ']'];
  return open.repeat(depth) + JSON.stringify(value) + close.repeat(depth);
}

/** The content type and body of `body` sent as `how`. */
function encode(body: Record<string, unknown>, how: typeof encoding extends fc.Arbitrary<infer T> ? T : never) {
  const entries = Object.entries(body);
  if (how === 'form')
    return {
      type: 'application/x-www-form-urlencoded',
      body: new URLSearchParams(entries.map(([k, v]) => [k, formValue(v)])).toString(),
    };
  if (how === 'multipart') {
    const form = new FormData();
    for (const [k, v] of entries) form.append(k, formValue(v));
    return { type: undefined, body: form }; // fetch sets multipart/form-data with its boundary
  }
  if (how === 'json' || how === 'text')
    return { type: how === 'json' ? 'application/json' : 'text/plain', body: JSON.stringify(body) };
  const [first, ...rest] = entries;
  const deep = first ? `${JSON.stringify(first[0])}:${nested(first[1], how.depth, how.objects)}` : '';
  const others = rest.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`);
  return { type: 'application/json', body: `{${[deep, ...others].filter(Boolean).join(',')}}` };
}

/** Replaces `{name}` in an OpenAPI path with generated values; drops characters that `fetch` would reject. */
function fill(path: string, values: string[]): string {
  let i = 0;
  return path.replace(/\{[^}]+\}/g, () => (values[i++] || 'x').replace(/[\s#?/\\]/g, '_'));
}

describe('property: no input answers 5xx', () => {
  const ops = operations();

  // Every refused input logs a warning (server/api/input-hygiene.ts): hundreds here, which would bury the report.
  beforeAll(() => {
    vi.spyOn(log(), 'warn').mockImplementation(() => undefined);
  });

  it('covers the API (every route of the OpenAPI document)', () => {
    expect(ops.length).toBeGreaterThan(40);
  });

  it.each(ops.map((op) => [`${op.method} ${op.path}`, op] as const))('%s', async (_name, op) => {
    const params = (op.path.match(/\{/g) ?? []).length;
    const statuses = new Set<number>();
    await fc.assert(
      fc.asyncProperty(
        fc.array(pathValue, { minLength: params, maxLength: params }),
        bodyOf(op.fields),
        encoding,
        async (values, body, how) => {
          const hasBody = op.method !== 'GET';
          const sent = hasBody ? encode(body, how) : undefined;
          const init: RequestInit = {
            method: op.method,
            headers: {
              ...clientHeaders,
              'x-peer-ip': nextIp(),
              ...(sent?.type ? { 'content-type': sent.type } : {}),
            },
            body: sent?.body,
          };
          let url: string;
          try {
            url = new URL(`${ORIGIN}${fill(op.path, values)}`).toString();
          } catch {
            return; // not a URL a client could send
          }
          const res = await app.request(url, init);
          const envelope = await res.json().catch(() => null);
          // A webhook whose provider is not configured here answers 503 to every input (so the provider retries).
          const unconfigured = op.path.includes('/webhooks/') && res.status === 503 && envelope?.code === 50300;
          const what = `${op.method} ${url} ${JSON.stringify(how)} ${JSON.stringify(body)}`;
          if (!unconfigured) expect(res.status, what).toBeLessThan(500);
          if (res.status >= 400) expect(envelope).toMatchObject({ success: 0 });
          statuses.add(res.status);
        },
      ),
      { numRuns: 30 },
    );
    // The route was reached: not every answer is the catch-all 404 of an unknown path.
    expect([...statuses].some((status) => status !== 404) || params > 0).toBe(true);
  });
});

describe('property: no input to the operator console answers 5xx', () => {
  // The console's routes are kept out of the public OpenAPI document; they are read from the app's route table, once
  // each (a route's validators are entries of the table too). Signing out goes last: it ends the session the other
  // routes are called with.
  const signOut = (r: { method: string; path: string }) => r.method === 'DELETE' && r.path.endsWith('/ops/session');
  const routes = app.routes
    .filter((r) => r.path.startsWith('/api_f/v1/ops/') && ['POST', 'PUT', 'DELETE'].includes(r.method))
    .filter((r, i, all) => all.findIndex((o) => o.method === r.method && o.path === r.path) === i)
    .sort((a, b) => Number(signOut(a)) - Number(signOut(b)));
  const fields: Record<string, Schema> = {
    email: { type: 'string' },
    password: { type: 'string' },
    code: { type: 'string' },
    phone: { type: 'string' },
    reason: { type: 'string' },
    reply: { type: 'string' },
  };
  let cookie = '';

  beforeAll(async () => {
    vi.spyOn(log(), 'warn').mockImplementation(() => undefined);
    const email = `fuzz-op-${crypto.randomUUID()}@example.com`;
    const created = await createOperator(await getDb(), email);
    const code = new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(created.secret) });
    const res = await app.request(`${ORIGIN}/api_f/v1/ops/session`, {
      method: 'POST',
      headers: { ...clientHeaders, 'x-peer-ip': nextIp(), 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: created.password, code: code.generate() }),
    });
    expect(res.status).toBe(200);
    cookie = /ops_token=[^;]+/.exec(res.headers.get('set-cookie') ?? '')![0];
  });

  it('covers the console', () => {
    expect(routes.length).toBeGreaterThan(6);
  });

  it.each(routes.map((r) => [`${r.method} ${r.path}`, r] as const))('%s', async (_name, route) => {
    const params = (route.path.match(/:/g) ?? []).length;
    const statuses = new Set<number>();
    await fc.assert(
      fc.asyncProperty(
        fc.array(pathValue, { minLength: params, maxLength: params }),
        bodyOf(fields),
        encoding,
        async (values, body, how) => {
          const sent = encode(body, how);
          let i = 0;
          const path = route.path.replace(/:\w+/g, () => (values[i++] || 'x').replace(/[\s#?/\\]/g, '_'));
          let url: string;
          try {
            url = new URL(`${ORIGIN}${path}`).toString();
          } catch {
            return;
          }
          const res = await app.request(url, {
            method: route.method,
            headers: {
              ...clientHeaders,
              cookie,
              'x-peer-ip': nextIp(),
              ...(sent.type ? { 'content-type': sent.type } : {}),
            },
            body: sent.body,
          });
          const what = `${route.method} ${url} ${JSON.stringify(how)} ${JSON.stringify(body)}`;
          expect(res.status, what).toBeLessThan(500);
          if (res.status >= 400) expect(await res.json(), what).toMatchObject({ success: 0 });
          statuses.add(res.status);
        },
      ),
      { numRuns: 30 },
    );
    // The session held: the route got past the console's sign-in check.
    expect([...statuses].some((status) => status !== 401)).toBe(true);
  });
});

describe('the inputs that answered 500 before', () => {
  const send = (path: string, init: RequestInit & { json?: unknown; form?: Record<string, string> } = {}) =>
    app.request(`${ORIGIN}/api_f/v1${path}`, {
      method: init.method ?? (init.json || init.form ? 'POST' : 'GET'),
      headers: {
        ...clientHeaders,
        'x-peer-ip': nextIp(),
        ...(init.json ? { 'content-type': 'application/json' } : {}),
        ...(init.form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      body: init.json ? JSON.stringify(init.json) : init.form ? new URLSearchParams(init.form).toString() : undefined,
    });

  it.each([
    [
      'a NUL in the contact form',
      () => send('/other/contact', { form: { name: 'A', email: 'a@example.com', message: 'hi\0 there, long enough' } }),
    ],
    ['a NUL in an order code', () => send('/portal/user/checkRegister/abcdefghij%00klmnop')],
    ['a NUL in a refund look-up', () => send('/admin/order/refundDetail', { form: { code: 'abcdefghij\0klmnop' } })],
    [
      'a NUL in the operation log',
      () => send('/operationLog', { json: { currDocument: '/\0', domain: 'x', eventCode: 'page_view', eventType: 1 } }),
    ],
    [
      'a lone surrogate in a tracking field',
      () =>
        send('/portal/order', {
          json: {
            email: 'a@example.com',
            phone: '+34612345678',
            requesterName: 'Anna (your sister)',
            terms: true,
            startNow: true,
            keyword: 'x\uD800',
          },
        }),
    ],
    ['a malformed %-encoding in a path segment', () => send('/portal/user/checkRegister/abcdefghij%E0%A4%Aklmnop')],
  ])('%s answers 400 in the envelope', async (_name, request) => {
    const res = await request();
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      success: 0,
      msg: 'The request contains characters that are not allowed.',
    });
  });

  it('logs an unexpected error without the query parameters (personal data)', () => {
    const error = new Error(
      'Failed query: insert into "support_messages" values ($1, $2)\nparams: Ann,ann@example.com',
      {
        cause: Object.assign(new Error('invalid byte sequence'), { code: '22021' }),
      },
    );
    const line = describeError(error);
    expect(line).toContain('22021');
    expect(line).not.toContain('ann@example.com');
  });
});
