'use client';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { LiveState, LocationTrace, Position } from '@/lib/contracts/locations';
import { usePolling } from '../ui/use-polling';

/** How the map gets its data: the live stream, or polling where the stream cannot be opened or kept. */
export type LiveTransport = 'connecting' | 'stream' | 'polling';

/** Stream failures in a row, without a single event between them, after which the map falls back to polling. */
const STREAM_FAILURES_BEFORE_POLLING = 3;

/**
 * The `onerror` of a map's event stream: a 404/401 closes it for good (readyState CLOSED) and a dropped connection is
 * retried by the browser; after the close, or STREAM_FAILURES_BEFORE_POLLING failures in a row without an event
 * between them (`failures`, set back to 0 by each event), the stream is closed and `poll` switches to polling.
 */
export function pollingAfterFailures(source: EventSource, failures: { current: number }, poll: () => void): () => void {
  return () => {
    failures.current += 1;
    if (source.readyState === EventSource.CLOSED || failures.current >= STREAM_FAILURES_BEFORE_POLLING) {
      source.close();
      poll();
    }
  };
}

/**
 * One request's trace kept current for the buyer's map. It opens the Server-Sent Events stream
 * `GET /api_f/v1/gpsTrace/phoneLocation/{id}/live` (server/api/routes/live.ts): `trace` replaces the view, `position`
 * adds a point (deduplicated by its id, newest first), `state` updates the status, what the owner's page said, the share's end and the ask for more time,
 * `place` names the place nearest to the newest GPS fix as it changes. The
 * browser's EventSource reconnects by itself with Last-Event-ID (WHATWG HTML, "Server-sent events"). Where
 * EventSource is missing or fails STREAM_FAILURES_BEFORE_POLLING times without an event (some proxies and old in-app
 * browsers), `poll` (the GET route, every 3 s) takes over. `poll` gets `active()` like usePolling's step and returns
 * the trace, or null to stop (not found, signed out).
 */
export function useLiveTrace(
  id: string,
  poll: (active: () => boolean) => Promise<LocationTrace | null | undefined>,
): { trace: LocationTrace | null; transport: LiveTransport } {
  const [trace, setTrace] = useState<LocationTrace | null>(null);
  const [transport, setTransport] = useState<LiveTransport>(() =>
    typeof window !== 'undefined' && 'EventSource' in window && id ? 'connecting' : 'polling',
  );
  const failures = useRef(0);

  useEffect(() => {
    if (transport === 'polling' || !id) return;
    const source = new EventSource(`/api_f/v1/gpsTrace/phoneLocation/${encodeURIComponent(id)}/live`);
    const heard = () => {
      failures.current = 0;
      setTransport('stream');
    };
    source.addEventListener('trace', (e) => {
      heard();
      setTrace(JSON.parse((e as MessageEvent<string>).data) as LocationTrace);
    });
    source.addEventListener('position', (e) => {
      heard();
      const p = JSON.parse((e as MessageEvent<string>).data) as Position;
      setTrace((t) => (t && !t.positions.some((q) => q.id === p.id) ? { ...t, positions: [p, ...t.positions] } : t));
    });
    source.addEventListener('place', (e) => {
      heard();
      const { place } = JSON.parse((e as MessageEvent<string>).data) as Pick<LocationTrace, 'place'>;
      setTrace((t) => (t ? { ...t, place } : t));
    });
    source.addEventListener('state', (e) => {
      heard();
      const s = JSON.parse((e as MessageEvent<string>).data) as LiveState;
      setTrace((t) => (t ? { ...t, ...s } : t));
    });
    source.onerror = pollingAfterFailures(source, failures, () => setTransport('polling'));
    return () => source.close();
  }, [id, transport === 'polling']); // eslint-disable-line react-hooks/exhaustive-deps

  const step = useCallback(
    async (active: () => boolean) => {
      if (transport !== 'polling') return false;
      const next = await poll(active);
      if (next && active()) setTrace(next);
      return next !== null;
    },
    [poll, transport],
  );
  usePolling(step);
  return { trace, transport };
}
