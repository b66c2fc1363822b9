import { serve, type ServerType } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClientError, createApiClient, NETWORK_ERROR, SESSION_INVALID } from '@/lib/api/client';
import type { PhoneInfo } from '@/lib/contracts/lookups';
import type { OrderView } from '@/lib/contracts/orders';
import { getDb } from '@/server/db/client';
import { operationLogs } from '@/server/db/schema';
import { app } from './support/api';

/** lib/api against the real API served over HTTP on a loopback port. */
let server: ServerType;
let baseURL = '';

beforeAll(async () => {
  await new Promise<void>((resolve) => {
    server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info: AddressInfo) => {
      baseURL = `http://127.0.0.1:${info.port}/api_f/v1`;
      resolve();
    });
  });
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('lib/api client', () => {
  it('unwraps obj on success and sends the page language', async () => {
    const api = createApiClient({ baseURL, language: 'es' });
    const info = await api.get<PhoneInfo>(`/other/location/info/${encodeURIComponent('+62 812-3456-7890')}`);
    expect(info).toMatchObject({ e164: '+6281234567890', countryName: 'Indonesia', carrier: 'Telkomsel' });
  });

  it('rejects with the localized msg and the error code', async () => {
    const api = createApiClient({ baseURL, language: 'es' });
    const error = await api.get('/other/location/info/%2B999123').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiClientError);
    expect(error).toMatchObject({
      message: 'El formato del número de teléfono no es válido. (código de país no válido)',
      status: 400,
      detail: { kind: 'invalid_country_code' },
    });
  });

  it('posts form-encoded bodies with website_type and tracking fields, and returns the whole body for orders', async () => {
    const api = createApiClient({
      baseURL,
      tracking: () => ({ gclid: 'G-1', keyword: 'find phone', os: 2, phoneOs: 2 }),
    });
    const body = await api.post<{ success: number; msg: string; obj: OrderView }>(
      '/portal/order',
      { email: 'client@example.com', phone: '+14155552671', requesterName: 'Anna (your sister)', terms: true },
      true,
    );
    expect(body.success).toBe(1);
    expect(body.obj).toMatchObject({ email: 'client@example.com', phone: '+14155552671', status: 'pending' });
  });

  it('puts tracking fields in the query on GET (without os) and in the body otherwise', async () => {
    const seen: {
      method?: string;
      params?: Record<string, unknown>;
      data?: unknown;
      headers?: Record<string, unknown>;
    }[] = [];
    const api = createApiClient({
      language: 'en-PH',
      tracking: () => ({ gclid: 'G-1', os: 3, phoneOs: 3, wbraid: undefined }),
      adapter: async (config) => {
        seen.push({
          method: config.method,
          params: config.params,
          data: config.data,
          headers: config.headers?.toJSON(),
        });
        return { data: { success: 1, msg: '', obj: 'ok' }, status: 200, statusText: 'OK', headers: {}, config };
      },
    });
    expect(await api.get('/x', { a: 1 })).toBe('ok');
    await api.put('/y', { b: 2 });
    expect(seen[0].params).toEqual({ gclid: 'G-1', phoneOs: 3, a: 1 });
    expect(seen[0].headers).toMatchObject({ website_type: '7', 'Accept-Language': 'en-PH,en;q=0.9' });
    expect(String(seen[1].data)).toBe('gclid=G-1&os=3&phoneOs=3&b=2');
  });

  it('sends the operation log through the client: headers of docs/rules.md#entities, tracking fields in the body, stored', async () => {
    const trackId = 'c'.repeat(64);
    const api = createApiClient({
      baseURL,
      language: 'id',
      tracking: () => ({ keyword: 'lacak hp', gclid: 'G-LOG', apkChannel: 'client-test', os: 3, phoneOs: 3 }),
      headers: () => ({ track_id: trackId }),
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

  it('keeps code 20012 on an invalid session and sends the token header', async () => {
    const api = createApiClient({ baseURL, token: () => 'not-a-session' });
    const error = (await api.get('/spyContent').catch((e: unknown) => e)) as ApiClientError;
    expect(error.code).toBe(SESSION_INVALID);
    expect(error.message).toBe('The login status is invalid, please log in to your account.');
  });

  it("says 'Network error, please try again later' when no response arrives", async () => {
    const api = createApiClient({ baseURL: 'http://127.0.0.1:9/api_f/v1' });
    const error = (await api.get('/health').catch((e: unknown) => e)) as ApiClientError;
    expect(error.message).toBe(NETWORK_ERROR);
    expect(error.status).toBe(0);
  });
});
