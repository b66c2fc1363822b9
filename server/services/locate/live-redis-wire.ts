import 'server-only';
import { Redis } from 'ioredis';
import { describeError } from '../../observability/describe-error';
import { log } from '../../observability/log';

// What the live broker's Redis engine writes and reads (docs/decisions/0019-live-broker.md): the stream of each
// request's notices, the fields of an entry, and the connections to Redis. The writing side is ./live-broker.ts
// (`RedisBroker`); the reading side ./live-redis.ts (`RedisFeed`).

/** The stream of request `requestId`'s notices (`live:<uuid>`; one key per request, so not for Redis Cluster). */
export function streamKeyOf(requestId: string): string {
  return `live:${requestId}`;
}

/**
 * How many notices a request's stream keeps, about (`XADD … MAXLEN ~`, Redis docs, "XADD": trimmed by whole macro
 * nodes, so never below this). A notice only points at the table (streams read positions from PostgreSQL after their
 * last event id), so a reader needs the newest one alone; a few dozen cover a reader that fell behind.
 */
export const STREAM_MAXLEN = 100;

/**
 * A request's stream is removed this long after its last notice (ms; `PEXPIRE` with each `XADD`), so the streams of
 * ended shares do not pile up in Redis's memory. A held stream that expires is simply written again by the next
 * notice, with a later id (Redis docs, "XADD": ids are the server's time in ms and a sequence).
 */
export const STREAM_TTL_MS = 24 * 60 * 60_000;

/** A reader's `XREAD` blocks at most this long (ms) before it is issued again; also how often a held set is re-read. */
export const READ_BLOCK_MS = 5_000;

/**
 * A command not answered this long (ms) is rejected ("Command timed out"): longer than a reader's blocking `XREAD`
 * (READ_BLOCK_MS), so only a Redis that accepts a connection and then stops answering hits it.
 */
export const COMMAND_TIMEOUT_MS = READ_BLOCK_MS + 5_000;

/**
 * A Redis connection for the live broker's engine (ioredis, "Connection Events" and "Auto-reconnect"): RESP2 (what
 * every Redis and Valkey speaks), reconnecting by itself with ioredis's backoff (at most 5 s apart), named in
 * `CLIENT LIST` as `name`. A command issued while the connection is down is tried on one reconnection at most, then
 * rejected, so a caller learns of an outage in seconds rather than waiting for it to end; one that a hung server
 * never answers is rejected after `commandTimeoutMs` (ioredis `commandTimeout`), so the broker retries and the hubs
 * read on a timer instead of waiting forever. Errors are logged (at most once a minute per connection) and never
 * thrown as events.
 */
export function redisConnection(url: string, name: string, commandTimeoutMs = COMMAND_TIMEOUT_MS): Redis {
  let lastLogged = 0;
  const client = new Redis(url, {
    protocol: 2,
    connectionName: name,
    maxRetriesPerRequest: 1,
    autoResendUnfulfilledCommands: false,
    commandTimeout: commandTimeoutMs,
  });
  client.on('error', (error: unknown) => {
    if (Date.now() - lastLogged < 60_000) return;
    lastLogged = Date.now();
    log().warn({ component: name, err: describeError(error) }, 'redis connection failed; reconnecting');
  });
  return client;
}

/** One notice of a request as read from its stream: its newest position id (`p`), or a heartbeat (`s`), or both. */
export type FeedNotice = { requestId: string; positionId: number | null; seen: boolean };

/** The fields of one stream entry, as `RedisBroker` writes them: `p <position id>` and/or `s 1`. */
export function entryFields(positionId: number | null, seen: boolean): string[] {
  return [...(positionId !== null ? ['p', String(positionId)] : []), ...(seen ? ['s', '1'] : [])];
}

/** The notice of request `requestId` in a stream entry's flat `[field, value, …]` list (unknown fields ignored). */
export function noticeOf(requestId: string, fields: string[]): FeedNotice {
  let positionId: number | null = null;
  let seen = false;
  for (let i = 0; i + 1 < fields.length; i += 2) {
    if (fields[i] === 'p' && Number.isSafeInteger(Number(fields[i + 1]))) positionId = Number(fields[i + 1]);
    else if (fields[i] === 's') seen = true;
  }
  return { requestId, positionId, seen };
}

/** Whether stream entry id `a` comes before `b` (`<ms>-<seq>`, Redis docs, "Redis Streams": entry ids). */
export function before(a: string, b: string): boolean {
  const [am, as] = a.split('-').map(BigInt);
  const [bm, bs] = b.split('-').map(BigInt);
  return am < bm || (am === bm && as < bs);
}
