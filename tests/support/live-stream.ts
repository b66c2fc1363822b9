import { API, app, clientHeaders } from './api';

// The buyer's live stream (GET /gpsTrace/phoneLocation/{id}/live, Server-Sent Events) read as a browser's EventSource
// would, in the test's own process (WHATWG HTML, "Server-sent events": blocks split by a blank line, `event:`, `id:`
// and `data:` fields).

/** One event of the stream: its type (`message` when unnamed), its id if any, its data. */
export type SseEvent = { event: string; id?: string; data: string };

/** Opens the buyer's stream of request `id` and reads its events as they come. */
export function openStream(id: string, cookie: string, lastEventId?: string) {
  return openPath(`/gpsTrace/phoneLocation/${id}/live`, cookie, lastEventId);
}

/** Opens the event stream at `path` (under the API's base) as the buyer of `cookie` and reads its events as they come. */
export async function openPath(path: string, cookie: string, lastEventId?: string) {
  const res = await app.request(`${API}${path}`, {
    headers: { ...clientHeaders, cookie, ...(lastEventId ? { 'last-event-id': lastEventId } : {}) },
  });
  if (res.status !== 200) return { status: res.status, next: async () => null as SseEvent | null, close: () => {} };
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  const queue: SseEvent[] = [];
  // A read that outlived a call's timeout is kept for the next call, so no chunk is dropped.
  let reading: Promise<ReadableStreamReadResult<Uint8Array>> | null = null;
  const next = async (timeoutMs = 5_000): Promise<SseEvent | null> => {
    const deadline = Date.now() + timeoutMs;
    while (queue.length === 0) {
      const left = deadline - Date.now();
      if (left <= 0) return null;
      reading ??= reader.read();
      const chunk = await Promise.race([
        reading,
        new Promise<null>((resolve) => setTimeout(() => resolve(null), left)),
      ]);
      if (!chunk) return null;
      reading = null;
      if (chunk.done) return null;
      buffer += decoder.decode(chunk.value, { stream: true });
      let end;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const e: SseEvent = { event: 'message', data: '' };
        for (const line of block.split('\n')) {
          if (line.startsWith('event:')) e.event = line.slice(6).trim();
          else if (line.startsWith('id:')) e.id = line.slice(3).trim();
          else if (line.startsWith('data:')) e.data += line.slice(5).trim();
        }
        if (e.data) queue.push(e);
      }
    }
    return queue.shift()!;
  };
  return { status: 200, next, close: () => void reader.cancel().catch(() => {}) };
}

/** Reads events until one of type `type` arrives (others skipped). */
export async function until(stream: { next: (ms?: number) => Promise<SseEvent | null> }, type: string) {
  for (;;) {
    const e = await stream.next();
    if (!e) return null;
    if (e.event === type) return e;
  }
}

/**
 * Reads every event of `stream` as it comes into `events`, until `stop` is called (which also closes the stream);
 * `positions` lists the `position` events' ids and data in the order they came.
 */
export function collect(stream: Awaited<ReturnType<typeof openStream>>) {
  const events: SseEvent[] = [];
  let stopped = false;
  const done = (async () => {
    while (!stopped) {
      const e = await stream.next(200);
      if (e) events.push(e);
    }
  })();
  return {
    events,
    positions: () =>
      events
        .filter((e) => e.event === 'position')
        .map((e) => ({ id: Number(e.id), ...(JSON.parse(e.data) as { latitude: number; source: string }) })),
    stop: async () => {
      stopped = true;
      await done;
      stream.close();
    },
  };
}
