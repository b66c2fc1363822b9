import { serve, type ServerType } from '@hono/node-server';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ApiClientError,
  createApiClient,
  NETWORK_ERROR,
  SESSION_INVALID,
  type ApiClientOptions,
} from '@/lib/api/client';
import { fetchApi, fetchCall } from '@/lib/api/fetch';
import type { PhoneInfo } from '@/lib/contracts/lookups';
import type { OrderView } from '@/lib/contracts/orders';
import { getDb } from '@/server/db/client';
import { operationLogs } from '@/server/db/schema';
import { app } from './support/api';

/**
 * lib/api's two transports against the real API served over HTTP on a loopback port: the axios client
 * (lib/api/client.ts) and `fetch` (lib/api/fetch.ts) must send the same request and read the same answer
 * (docs/rules.md#api), so each case runs on both.
 */
let server: ServerType;
let baseURL = '';
/**
 * A server that records what arrives and answers success, for what the API does not echo (the query, the body); on
 * `/proxy-502` it answers as a proxy in front of the API would (an HTML page, 502), on `/not-json` with 200 and text.
 */
let echo: Server;
let echoURL = '';
const arrived: { method?: string; url?: string; headers: IncomingMessage['headers']; body: string }[] = [];

function listen(start: (done: (port: number) => void) => void): Promise<number> {
  return new Promise((resolve) => start(resolve));
}

beforeAll(async () => {
  const port = await listen((done) => {
    server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info: AddressInfo) => done(info.port));
  });
  baseURL = `http://127.0.0.1:${port}/api_f/v1`;
  echo = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      arrived.push({ method: req.method, url: req.url, headers: req.headers, body });
      if (req.url?.includes('/proxy-502')) {
        res.writeHead(502, { 'content-type': 'text/html' }).end('<html><body>Bad Gateway</body></html>');
        return;
      }
      if (req.url?.includes('/not-json')) {
        res.writeHead(200, { 'content-type': 'text/plain' }).end('maintenance');
        return;
      }
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ success: 1, msg: '', obj: 'ok' }));
    });
  });
  const echoPort = await listen((done) =>
    echo.listen(0, '127.0.0.1', () => done((echo.address() as AddressInfo).port)),
  );
  echoURL = `http://127.0.0.1:${echoPort}/api_f/v1`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await new Promise<void>((resolve) => echo.close(() => resolve()));
});

/** The calls the cases make, over one transport, with the client's options as values. */
type Transport = (options: {
  baseURL: string;
  language?: string;
  tracking?: Record<string, string | number | undefined>;
  headers?: Record<string, string | undefined>;
}) => {
  get: <T>(path: string, params?: Record<string, string | number | undefined>) => Promise<T>;
  post: <T>(
    path: string,
    data: Record<string, unknown>,
    whole?: boolean,
    headers?: Record<string, string>,
  ) => Promise<T>;
};

const axiosTransport: Transport = (o) => {
  const options: ApiClientOptions = {
    baseURL: o.baseURL,
    language: o.language,
    tracking: () => o.tracking ?? {},
    headers: () => o.headers ?? {},
  };
  const api = createApiClient(options);
  return {
    get: (path, params) => api.get(path, params),
    post: (path, data, whole, h) => api.post(path, data, whole, h),
  };
};

const fetchTransport: Transport = (o) => {
  const base = { baseURL: o.baseURL, language: o.language ?? 'en', tracking: o.tracking };
  return {
    get: (path, params) => fetchApi(path, { ...base, params, headers: o.headers }),
    post: (path, data, whole, h) =>
      fetchApi(path, { ...base, method: 'POST', data, whole, headers: { ...o.headers, ...h } }),
  };
};

describe.each([
  ['the axios client', axiosTransport],
  ['fetch', fetchTransport],
])('lib/api over %s', (name, transport) => {
  it('unwraps obj on success and sends the page language', async () => {
    const api = transport({ baseURL, language: 'es' });
    const info = await api.get<PhoneInfo>(`/other/location/info/${encodeURIComponent('+62 812-3456-7890')}`);
    expect(info).toMatchObject({ e164: '+6281234567890', countryName: 'Indonesia', carrier: 'Telkomsel' });
  });

  it('rejects with the localized msg, the error code and the envelope’s detail', async () => {
    const api = transport({ baseURL, language: 'es' });
    const error = await api.get('/other/location/info/%2B999123').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiClientError);
    expect(error).toMatchObject({
      message: 'El formato del número de teléfono no es válido. (código de país no válido)',
      code: 40000,
      status: 400,
      detail: { kind: 'invalid_country_code' },
    });
  });

  it('reads an answer that is not the API’s (a proxy’s 502 page, text on 200) as the network message', async () => {
    const api = transport({ baseURL: echoURL });
    expect(await api.get('/proxy-502').catch((e: unknown) => e)).toMatchObject({
      message: NETWORK_ERROR,
      status: 502,
      code: 502,
    });
    const notJson = await api.get('/not-json').catch((e: unknown) => e);
    expect(notJson).toBeInstanceOf(ApiClientError);
    expect(notJson).toMatchObject({ message: NETWORK_ERROR });
  });

  it('posts form-encoded bodies with website_type and tracking fields, and returns the whole body for orders', async () => {
    const api = transport({ baseURL, tracking: { gclid: 'G-1', keyword: 'find phone', os: 2, phoneOs: 2 } });
    const body = await api.post<{ success: number; msg: string; obj: OrderView }>(
      '/portal/order',
      {
        email: 'client@example.com',
        phone: '+14155552671',
        requesterName: 'Anna (your sister)',
        terms: true,
        startNow: true,
      },
      true,
    );
    expect(body.success).toBe(1);
    expect(body.obj).toMatchObject({ email: 'client@example.com', phone: '+14155552671', status: 'pending' });
  });

  it('puts tracking fields in the query on GET (without os) and in the body otherwise; empty headers are not sent', async () => {
    arrived.length = 0;
    const api = transport({
      baseURL: echoURL,
      language: 'en-PH',
      tracking: { gclid: 'G-1', os: 3, phoneOs: 3, wbraid: undefined, keyword: '' },
      headers: { track_id: 'e'.repeat(64), empty: '' },
    });
    expect(await api.get('/x', { a: 1, gclid: 'G-2' })).toBe('ok');
    expect(await api.post('/y', { b: 2, skipped: undefined })).toBe('ok');
    // A param left undefined takes the tracking field of its name out of the query.
    expect(await api.get('/z', { gclid: undefined, c: 3 })).toBe('ok');
    const [get, post, without] = arrived;
    expect(get.method).toBe('GET');
    expect(new URL(get.url!, 'http://h').searchParams.toString()).toBe('gclid=G-2&phoneOs=3&a=1');
    expect(new URL(without.url!, 'http://h').searchParams.toString()).toBe('phoneOs=3&c=3');
    expect(get.headers).toMatchObject({
      website_type: '7',
      'accept-language': 'en-PH,en;q=0.9',
      track_id: 'e'.repeat(64),
    });
    expect(get.headers.empty).toBeUndefined();
    expect(post.method).toBe('POST');
    expect(post.headers['content-type']).toContain('application/x-www-form-urlencoded');
    expect(post.body).toBe('gclid=G-1&os=3&phoneOs=3&b=2');
  });

  it('sends the operation log: headers of docs/rules.md#entities, tracking fields in the body, stored', async () => {
    const trackId = (name === 'fetch' ? 'd' : 'c').repeat(64);
    const api = transport({
      baseURL,
      language: 'id',
      tracking: { keyword: 'lacak hp', gclid: 'G-LOG', apkChannel: 'client-test', os: 3, phoneOs: 3 },
      headers: { track_id: trackId },
    });
    const headers = { apk_version_code: 'fmp1.3', version: 'fmp1.3', phone_os: '3' };
    const body = { currDocument: '/id/gps-locator/', domain: 'example.com', eventCode: 'landing_view', eventType: 1 };
    expect(await api.post('/operationLog', body, false, headers)).toEqual({ stored: true });
    const [row] = await (await getDb()).select().from(operationLogs).where(eq(operationLogs.trackId, trackId));
    expect(row).toMatchObject({
      eventCode: 'landing_view',
      locale: 'id',
      channel: 'client-test',
      keyword: 'lacak hp',
      gclid: 'G-LOG',
      phoneOs: 3,
      appVersion: 'fmp1.3',
    });
  });

  it("says 'Network error, please try again later' when no response arrives", async () => {
    const api = transport({ baseURL: 'http://127.0.0.1:9/api_f/v1' });
    const error = (await api.get('/health').catch((e: unknown) => e)) as ApiClientError;
    expect(error).toBeInstanceOf(ApiClientError);
    expect(error.message).toBe(NETWORK_ERROR);
    expect(error.status).toBe(0);
  });
});

describe('lib/api, one transport', () => {
  it('keeps code 20012 on an invalid session and sends the token header', async () => {
    const api = createApiClient({ baseURL, token: () => 'not-a-session' });
    const error = (await api.get('/spyContent').catch((e: unknown) => e)) as ApiClientError;
    expect(error.code).toBe(SESSION_INVALID);
    expect(error.message).toBe('The login status is invalid, please log in to your account.');
  });

  it('fetch says the page’s own network message when no response arrives', async () => {
    const error = (await fetchApi('/health', {
      baseURL: 'http://127.0.0.1:9/api_f/v1',
      language: 'es',
      networkMessage: 'Error de red',
    }).catch((e: unknown) => e)) as ApiClientError;
    expect(error).toMatchObject({ message: 'Error de red', status: 0, code: 0 });
  });
});

describe('lib/api, calls by their contract key (lib/contracts/calls.ts)', () => {
  it('fills the path from params %-encoded, sends the query and the form body, and resolves whole when asked', async () => {
    arrived.length = 0;
    const api = createApiClient({ baseURL: echoURL });
    expect(await api.call('GET /usernameLookup/{id}', { params: { id: 'a b/c' } })).toBe('ok');
    const endpoint = 'https://push.example/send/x?y=1';
    expect(await api.call('DELETE /push/subscriptions', { query: { endpoint } })).toBe('ok');
    const code = 'order-code-0123456789';
    expect(await api.call('POST /admin/order/refund', { body: { code }, whole: true })).toEqual({
      success: 1,
      msg: '',
      obj: 'ok',
    });
    expect(
      await fetchCall('GET /portal/order/{code}', { params: { code: 'x y' } }, { baseURL: echoURL, language: 'en' }),
    ).toBe('ok');
    const [get, remove, post, fetched] = arrived;
    expect([get.method, get.url]).toEqual(['GET', '/api_f/v1/usernameLookup/a%20b%2Fc']);
    expect(remove.method).toBe('DELETE');
    expect(new URL(remove.url!, 'http://h').searchParams.get('endpoint')).toBe(endpoint);
    expect([post.method, post.url, post.body]).toEqual(['POST', '/api_f/v1/admin/order/refund', `code=${code}`]);
    expect([fetched.method, fetched.url]).toEqual(['GET', '/api_f/v1/portal/order/x%20y']);
  });
});

describe('lib/api, the operator console over the same fetch transport (components/ops/parts.tsx)', () => {
  it('sends a JSON body with its type, a DELETE with its query and no body, and the console’s website_type', async () => {
    arrived.length = 0;
    const ops = { baseURL: echoURL, language: 'en', headers: { website_type: 'ops' } };
    expect(await fetchApi('/ops/orders/1/refund', { ...ops, method: 'POST', json: { reason: 'asked' } })).toBe('ok');
    expect(await fetchApi('/ops/session', { ...ops, method: 'DELETE', params: { a: 'b c' } })).toBe('ok');
    expect(await fetchApi('/ops/orders', { ...ops, params: { q: 'CH-7K4M' } })).toBe('ok');
    const [post, remove, get] = arrived;
    expect([post.method, post.url, post.body]).toEqual(['POST', '/api_f/v1/ops/orders/1/refund', '{"reason":"asked"}']);
    expect([post.headers['content-type'], post.headers.website_type]).toEqual(['application/json', 'ops']);
    expect([remove.method, remove.url, remove.body]).toEqual(['DELETE', '/api_f/v1/ops/session?a=b+c', '']);
    expect([get.method, get.url, get.headers.website_type]).toEqual(['GET', '/api_f/v1/ops/orders?q=CH-7K4M', 'ops']);
  });
});
