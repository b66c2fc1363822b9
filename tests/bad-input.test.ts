import { Secret, TOTP } from 'otpauth';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { getDb } from '@/server/db/client';
import { MAX_JSON_DEPTH, jsonProblem } from '@/server/api/input-hygiene';
import { log } from '@/server/observability/log';
import { createOperator } from '@/server/services/ops';
import { API, app, clientHeaders } from './support/api';
import { nextIp, uniqueEmail } from './support/accounts';

// Input that used to answer 500 through the API (docs/security.md "Bad input never answers 500"): a JSON body nested thousands
// deep, a NUL in a multipart field, a NUL in a console body sent as text/plain, and paths whose %-encoding is not
// UTF-8. Each now answers 400 in the envelope, localized, and is logged as a warning without the text itself.
// (The same paths through Next, and TRACE, are covered by tests/request-guard.test.ts and e2e/site.spec.ts.)

const deep = (depth: number, inner = '1') => '['.repeat(depth) + inner + ']'.repeat(depth);

/** A POST to the API as a browser page sends it, with a raw body of `type`. */
function post(path: string, body: BodyInit, type?: string, lang = 'en') {
  return app.request(`${API}${path}`, {
    method: 'POST',
    headers: {
      ...clientHeaders,
      'accept-language': lang,
      'x-peer-ip': nextIp(),
      ...(type ? { 'content-type': type } : {}),
    },
    body,
  });
}

const BAD_INPUT = {
  en: 'The request contains characters that are not allowed.',
  es: 'La solicitud contiene caracteres no permitidos.',
};
const TOO_DEEP = {
  en: 'The request is nested too deeply.',
  es: 'La solicitud tiene demasiados niveles anidados.',
  id: 'Permintaan ini memiliki terlalu banyak tingkat bersarang.',
};

afterEach(() => {
  vi.restoreAllMocks();
});

describe('a JSON body nested thousands deep answers 400, not a stack overflow', () => {
  it.each([
    ['arrays 5,000 deep', '/portal/order', 'en', deep(5000)],
    ['arrays 5,000 deep', '/portal/priceSetup/offer', 'es', deep(5000)],
    ['arrays 5,000 deep in a field', '/portal/order', 'id', `{"email":"a@example.com","keyword":${deep(5000)}}`],
    ['objects 5,000 deep', '/portal/order', 'en', '{"a":'.repeat(5000) + '1' + '}'.repeat(5000)],
    ['arrays 100,000 deep', '/other/contact', 'en', deep(100_000)],
  ] as const)('%s: POST %s in %s', async (_label, path, lang, body) => {
    const res = await post(path, body, 'application/json', lang);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ success: 0, code: 40000, msg: TOO_DEEP[lang] });
  });

  it('still reads a body just within the limit (the route validates it: 422, not 400)', async () => {
    const res = await post(
      '/portal/order',
      JSON.stringify({ email: 'a@example.com', keyword: JSON.parse(deep(MAX_JSON_DEPTH - 1)) }),
      'application/json',
    );
    expect(res.status).toBe(422);
  });

  it('walks any depth without recursion', () => {
    expect(jsonProblem(JSON.parse(deep(200_000)))).toBe('depth');
    expect(jsonProblem(JSON.parse(deep(200_000)), Infinity)).toBeNull();
    expect(jsonProblem(JSON.parse(deep(200_000, '"a\\u0000"')), Infinity)).toBe('body');
    expect(jsonProblem({ ok: [{ 'k\uD800': 1 }] })).toBe('body');
    expect(jsonProblem(JSON.parse(deep(MAX_JSON_DEPTH)))).toBeNull();
    expect(jsonProblem(JSON.parse(deep(MAX_JSON_DEPTH + 1)))).toBe('depth');
  });

  it('answers 20 such bodies sent at once, each 400', async () => {
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => post('/portal/order', deep(20_000), 'application/json')),
    );
    expect(answers.map((res) => res.status)).toEqual(Array(20).fill(400));
  });
});

describe('multipart bodies are checked like form and JSON bodies', () => {
  const contact = (message: string, extra: Record<string, string | Blob> = {}) => {
    const form = new FormData();
    form.set('name', 'Ann Example');
    form.set('email', 'ann@example.com');
    form.set('message', message);
    for (const [key, value] of Object.entries(extra)) form.set(key, value);
    return form;
  };

  it('refuses a NUL in a multipart field of the contact form (was a database error 22021 and a 500)', async () => {
    const res = await post('/other/contact', contact('hi\0 there, a message long enough'), undefined, 'es');
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ success: 0, code: 40000, msg: BAD_INPUT.es });
  });

  it('refuses a NUL in a multipart field name or file name', async () => {
    const named = await post('/other/contact', contact('A message long enough for the form.', { 'x\0': 'y' }));
    expect(named.status).toBe(400);
    const file = new File(['x'], 'a\0.txt', { type: 'text/plain' });
    const filed = await post('/other/contact', contact('A message long enough for the form.', { attachment: file }));
    expect(filed.status).toBe(400);
  });

  it('still accepts a clean multipart contact message (the parsed form reaches the validator)', async () => {
    const res = await post('/other/contact', contact('A clean message, long enough for the contact form.'));
    expect(res.status).toBe(200);
    expect((await res.json()).success).toBe(1);
  });

  it('answers a broken multipart body 400 (unreadable), not 500', async () => {
    const res = await post('/other/contact', '--x\r\nnot a part', 'multipart/form-data; boundary=x');
    expect(res.status).toBe(400);
    expect((await res.json()).success).toBe(0);
  });
});

describe('a body sent with another content type is checked too', () => {
  const totp = (secret: string) =>
    new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) });

  /** A signed-in operator's console cookie. */
  async function consoleCookie() {
    const email = uniqueEmail('op-hygiene');
    const created = await createOperator(await getDb(), email);
    const res = await post(
      '/ops/session',
      JSON.stringify({ email, password: created.password, code: totp(created.secret).generate() }),
      'application/json',
    );
    expect(res.status).toBe(200);
    return /ops_token=[^;]+/.exec(res.headers.get('set-cookie') ?? '')![0];
  }

  it('refuses a NUL in a console body sent as text/plain (the console parsed it as JSON past the checks)', async () => {
    const cookie = await consoleCookie();
    const res = await app.request(`${API}/ops/opt-outs`, {
      method: 'POST',
      headers: { ...clientHeaders, cookie, 'x-peer-ip': nextIp(), 'content-type': 'text/plain' },
      body: JSON.stringify({ phone: '+34612345678', reason: 'asked by phone\0 to stop' }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ success: 0, code: 40000, msg: BAD_INPUT.en });
  });

  it('answers a console body sent as text/plain 415 (the console takes JSON only)', async () => {
    const cookie = await consoleCookie();
    const res = await app.request(`${API}/ops/opt-outs`, {
      method: 'POST',
      headers: {
        ...clientHeaders,
        cookie,
        'x-peer-ip': nextIp(),
        'content-type': 'text/plain',
        'accept-language': 'es',
      },
      body: JSON.stringify({ phone: '+34612345678', reason: 'asked by phone to stop' }),
    });
    expect(res.status).toBe(415);
    expect(await res.json()).toMatchObject({ success: 0, code: 41500 });
  });

  it.each([['text/plain'], ['application/vnd.api+json'], [undefined]])(
    'refuses a NUL or a deep body sent as %s',
    async (type) => {
      const nul = await post('/portal/order', '{"email":"a\\u0000@example.com"}', type);
      expect(nul.status).toBe(400);
      const raw = await post('/portal/order', 'a\0b', type);
      expect(raw.status).toBe(400);
      const nested = await post('/portal/priceSetup/offer', deep(5000), type);
      expect(nested.status).toBe(400);
    },
  );
});

describe('paths whose %-encoding is not UTF-8 answer 400 in the envelope', () => {
  it.each([['a%ZZb'], ['%ED%A0%80'], ['%E0%A4%A'], ['%C0%80'], ['x%'], ['%00']])('%s', async (segment) => {
    const res = await app.request(`${API}/other/location/info/${segment}`, {
      headers: { 'accept-language': 'es-ES,es;q=0.9' },
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ success: 0, code: 40000, msg: BAD_INPUT.es });
  });
});

describe('each refusal is logged as a warning, without the text itself', () => {
  it('logs the kind of problem, the method and the request id', async () => {
    const warn = vi.spyOn(log(), 'warn');
    await post(
      '/other/contact',
      'name=Ann&email=secret%40example.com&message=x%00y',
      'application/x-www-form-urlencoded',
    );
    await post('/portal/order', deep(5000), 'application/json');
    await app.request(`${API}/other/location/info/%2B34612345678%ED%A0%80`);
    const calls = warn.mock.calls.map((args) => args as unknown[]);
    expect(calls.map(([fields]) => (fields as { problem: string }).problem)).toEqual(['body', 'depth', 'path']);
    for (const [fields, message] of calls) {
      expect(fields).toMatchObject({ method: expect.any(String), reqId: expect.any(String) });
      expect(message).toBe('bad input refused');
      expect(JSON.stringify(fields)).not.toMatch(/secret|example|34612345678/);
    }
  });
});
