import { describe, expect, it } from 'vitest';
import { getBoss } from '@/server/jobs/boss';
import { API, app } from './support/api';
import { buyAccount, uniqueEmail } from './support/accounts';

// Request ids, the queue in /health, and the Prometheus metrics behind a token.

describe('observability', () => {
  it('gives every API answer a request id, keeping a well-formed one from the proxy', async () => {
    const fresh = await app.request(`${API}/health`);
    expect(fresh.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const kept = await app.request(`${API}/health`, { headers: { 'x-request-id': 'edge-1234abcd' } });
    expect(kept.headers.get('x-request-id')).toBe('edge-1234abcd');
    const replaced = await app.request(`${API}/health`, {
      headers: { 'x-request-id': 'bad id with spaces and <angle>' },
    });
    expect(replaced.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('gives error answers and the metrics text their request id too, once', async () => {
    const answers = [
      await app.request(`${API}/no-such-route`, { headers: { 'x-request-id': 'edge-404-abcd' } }),
      await app.request(`${API}/portal/priceSetup?plan=not-a-uuid`, { headers: { 'x-request-id': 'edge-422-abcd' } }),
      await app.request(`${API}/metrics`, { headers: { 'x-request-id': 'edge-401-abcd' } }),
      await app.request(`${API}/metrics`, {
        headers: { 'x-request-id': 'edge-200-abcd', authorization: 'Bearer test-metrics-token-0123456789' },
      }),
    ];
    expect(answers.map((r) => r.status)).toEqual([404, 422, 401, 200]);
    expect(answers.map((r) => r.headers.get('x-request-id'))).toEqual([
      'edge-404-abcd',
      'edge-422-abcd',
      'edge-401-abcd',
      'edge-200-abcd',
    ]);
  });

  it('reports the job queue depth and the age of its oldest due job', async () => {
    const boss = await getBoss();
    await boss.createQueue('health-probe');
    await boss.send('health-probe', {}, { startAfter: new Date(Date.now() - 120_000) });
    const { obj } = await (await app.request(`${API}/health`)).json();
    expect(obj.queue.depth).toBeGreaterThanOrEqual(1);
    expect(obj.queue.oldestJobAgeSeconds).toBeGreaterThanOrEqual(100);
    await boss.purgeQueue('health-probe');
    await boss.deleteQueue('health-probe');
  });

  it('serves Prometheus metrics only with the bearer token, per route pattern and without personal data', async () => {
    const email = uniqueEmail('metrics');
    await buyAccount(email);
    expect((await app.request(`${API}/metrics`)).status).toBe(401);
    expect(
      (await app.request(`${API}/metrics`, { headers: { authorization: 'Bearer wrong-token-0123456789' } })).status,
    ).toBe(401);
    // A malformed header (another scheme, no token) is refused as unauthorised too, not 400, in the API's envelope.
    const malformed = await app.request(`${API}/metrics`, { headers: { authorization: 'Basic dXNlcjpwYXNz' } });
    expect(malformed.status).toBe(401);
    expect(await malformed.json()).toMatchObject({ success: 0 });
    const res = await app.request(`${API}/metrics`, {
      headers: { authorization: 'Bearer test-metrics-token-0123456789' },
    });
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toMatch(
      /http_requests_total\{method="POST",route="\/api_f\/v1\/portal\/order\/:code\/sandboxPay",status="200"\} \d+/,
    );
    expect(text).toMatch(
      /http_request_duration_seconds_bucket\{le="0\.5",method="POST",route="\/api_f\/v1\/portal\/order"\}/,
    );
    expect(text).toContain('outbox_deliveries_total');
    expect(text).not.toContain(email);
    expect(text).not.toContain('example.com');
  });
});
