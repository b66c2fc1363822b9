import { afterAll, describe, expect, it } from 'vitest';
import { isDraining, startDraining } from '@/server/lifecycle';
import { RESUME_RETRY_MS, liveHub, streamCaps, streams } from '@/server/services/locate';
import { API, app, clientHeaders } from './support/api';
import { call } from './support/accounts';
import { trialRequest } from './support/billing';

// A web process that stops loses nothing (docs/deploy.md, "Start, operate, add instances"): on SIGTERM readiness
// fails at once while liveness holds, and its live streams end in batches, each told to reconnect in a moment
// (`retry:`), so the browsers resume on the other instances from Last-Event-ID.

afterAll(async () => {
  (globalThis as unknown as Record<symbol, boolean>)[Symbol.for('app.draining')] = false;
  streams().closeAll();
  await liveHub().close();
});

/** Opens a stream and collects its text until it ends; `ended` resolves with the time it ended (ms). */
async function openStream(id: string, cookie: string) {
  const res = await app.request(`${API}/gpsTrace/phoneLocation/${id}/live`, { headers: { ...clientHeaders, cookie } });
  expect(res.status).toBe(200);
  const reader = res.body!.getReader();
  const stream = { text: '', ended: Promise.resolve(0) };
  stream.ended = (async () => {
    for (;;) {
      const chunk = await reader.read();
      if (chunk.done) return performance.now();
      stream.text += new TextDecoder().decode(chunk.value);
    }
  })();
  return stream;
}

describe('a web process that shuts down', () => {
  it('fails readiness but not liveness, then ends its streams in batches, each with a retry hint', async () => {
    expect((await call('GET', '/health/ready')).status).toBe(200);
    const buyers = await Promise.all([0, 1, 2].map((i) => trialRequest(`drain-${i}`)));
    const opened = [];
    for (const b of buyers)
      for (let i = 0; i < streamCaps().session; i++) opened.push(await openStream(b.id, b.cookie));
    await new Promise((r) => setTimeout(r, 100));
    expect(opened.every((s) => s.text.includes('event: trace'))).toBe(true);

    startDraining();
    expect(isDraining()).toBe(true);
    const ready = await call('GET', '/health/ready');
    expect(ready.status).toBe(503);
    expect((await ready.json()).success).toBe(0);
    expect((await call('GET', '/health/live')).status).toBe(200);

    const started = performance.now();
    const ended = await streams().drain(4, 60);
    expect(ended).toBe(opened.length);
    const times = await Promise.all(opened.map((s) => s.ended));
    for (const s of opened) {
      const retry = Number(/\nretry: (\d+)\n\n$/.exec(s.text)?.[1]);
      expect(retry).toBeGreaterThanOrEqual(RESUME_RETRY_MS);
      expect(retry).toBeLessThan(2 * RESUME_RETRY_MS);
    }
    // Three batches of four, 60 ms apart: the last ended well after the first.
    expect(Math.max(...times) - started).toBeGreaterThanOrEqual(100);
    expect(streams().size).toBe(0);
  });
});
