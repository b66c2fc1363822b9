// A lean reader of the buyer's live stream (`GET /api_f/v1/gpsTrace/phoneLocation/{id}/live`, Server-Sent Events) for
// the benchmarks: raw node:http, one socket per stream, events parsed as the WHATWG HTML "Server-sent events" format
// frames them (fields `event:`, `id:`, `data:`, a blank line ends an event). Thousands fit in one process.
import http from 'node:http';

/** One event as received, with the wall-clock time of its arrival (ms since the epoch, sub-ms precision). */
export type SseEvent = { event: string; id?: string; data: string; at: number };

/** The wall clock with sub-millisecond precision (ms since the epoch), comparable across processes on one machine. */
export const wallNow = () => performance.timeOrigin + performance.now();

/** An open stream: `close()` ends it; `closed` resolves when the server or the network ends it. */
export type SseStream = { close: () => void; closed: Promise<string> };

/**
 * Opens the stream of request `id` at `origin` as the buyer with `cookie`, calling `onEvent` for each event. Resolves
 * once the response headers arrive (status 200), rejects on another status or a network error.
 */
export function openSse(
  origin: string,
  id: string,
  cookie: string,
  onEvent: (e: SseEvent) => void,
  lastEventId?: string,
): Promise<SseStream> {
  const url = new URL(`/api_f/v1/gpsTrace/phoneLocation/${id}/live`, origin);
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        agent: false,
        headers: {
          accept: 'text/event-stream',
          website_type: '7',
          cookie,
          ...(lastEventId ? { 'last-event-id': lastEventId } : {}),
        },
      },
      (res) => {
        if (res.statusCode !== 200) {
          res.resume();
          reject(new Error(`status ${res.statusCode}`));
          return;
        }
        res.setEncoding('utf8');
        let buffer = '';
        res.on('data', (chunk: string) => {
          const at = wallNow();
          buffer += chunk;
          let end;
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const e: SseEvent = { event: 'message', data: '', at };
            for (const line of block.split('\n')) {
              if (line.startsWith('event:')) e.event = line.slice(6).trim();
              else if (line.startsWith('id:')) e.id = line.slice(3).trim();
              else if (line.startsWith('data:')) e.data += line.slice(5).trim();
            }
            if (e.data) onEvent(e);
          }
        });
        const closed = new Promise<string>((done) => {
          res.on('end', () => done('ended by the server'));
          res.on('error', (err) => done(String(err)));
          res.on('close', () => done('closed'));
        });
        resolve({ close: () => req.destroy(), closed });
      },
    );
    req.on('error', reject);
    req.end();
  });
}
