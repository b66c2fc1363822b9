import 'server-only';
import type { Context, MiddlewareHandler } from 'hono';
import { bearerAuth } from 'hono/bearer-auth';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** The process's Prometheus metrics (prom-client), on globalThis so every bundle of the process shares them. */
type Metrics = {
  registry: Registry;
  /** API requests by method, route pattern and status. */
  httpRequests: Counter<'method' | 'route' | 'status'>;
  /** API request duration, seconds, by method and route pattern. */
  httpDuration: Histogram<'method' | 'route'>;
  /** Jobs run by queue and outcome (`ok`, `failed`). */
  jobs: Counter<'queue' | 'outcome'>;
  /** Job duration, seconds, by queue. */
  jobDuration: Histogram<'queue'>;
  /** Outbox delivery attempts by channel (`email`, `sms`) and outcome (`sent`, `retry`, `failed`). */
  deliveries: Counter<'channel' | 'outcome'>;
  /** Time from an outbox row's creation to its hand-over to the provider, seconds, by channel. */
  deliveryLatency: Histogram<'channel'>;
  /**
   * Live streams this process holds open now (`liveStreamsOpen.set` by services/locate/live-streams.ts as they open and
   * end): what an autoscaler counts per pod (deploy/k8s).
   */
  liveStreamsOpen: Gauge;
};

const key = Symbol.for('app.metrics');
const store = globalThis as unknown as { [key]?: Metrics };

/** The metrics of this process (created on first use, with Node's default process metrics). */
export function metrics(): Metrics {
  if (store[key]) return store[key];
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const buckets = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
  store[key] = {
    registry,
    httpRequests: new Counter({
      name: 'http_requests_total',
      help: 'API requests by method, route pattern and status',
      labelNames: ['method', 'route', 'status'],
      registers: [registry],
    }),
    httpDuration: new Histogram({
      name: 'http_request_duration_seconds',
      help: 'API request duration by method and route pattern',
      labelNames: ['method', 'route'],
      buckets,
      registers: [registry],
    }),
    jobs: new Counter({
      name: 'jobs_total',
      help: 'pg-boss jobs run by queue and outcome',
      labelNames: ['queue', 'outcome'],
      registers: [registry],
    }),
    jobDuration: new Histogram({
      name: 'job_duration_seconds',
      help: 'pg-boss job duration by queue',
      labelNames: ['queue'],
      buckets,
      registers: [registry],
    }),
    deliveries: new Counter({
      name: 'outbox_deliveries_total',
      help: 'SMS and e-mail delivery attempts by channel and outcome (sent, retry, failed)',
      labelNames: ['channel', 'outcome'],
      registers: [registry],
    }),
    deliveryLatency: new Histogram({
      name: 'outbox_delivery_latency_seconds',
      help: 'Time from an outbox row being written to its hand-over to the provider',
      labelNames: ['channel'],
      buckets: [0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 300, 1800, 7200, 86400],
      registers: [registry],
    }),
    liveStreamsOpen: new Gauge({
      name: 'live_streams_open',
      help: "Buyers' live streams this process holds open",
      registers: [registry],
    }),
  };
  return store[key];
}

/**
 * Middleware admitting only `Authorization: Bearer <token>` (hono/bearer-auth, RFC 6750; constant-time comparison).
 * Every refusal — no header, a malformed one, a wrong token — is `refuse`'s answer: the API throws its 401 envelope,
 * the worker answers a bare 401.
 */
export function metricsAuth(token: string, refuse: (c: Context) => Response | Promise<Response>): MiddlewareHandler {
  const message = refuse;
  return bearerAuth({
    token,
    noAuthenticationHeader: { message },
    invalidAuthenticationHeader: { message },
    invalidToken: { message },
  });
}

/**
 * Runs `fn` as one job of `queue`, counting it in `jobs_total` and `job_duration_seconds`; rethrows its error so
 * pg-boss records the failure.
 */
export async function timedJob<T>(queue: string, fn: () => Promise<T>): Promise<T> {
  const m = metrics();
  const end = m.jobDuration.startTimer({ queue });
  try {
    const result = await fn();
    m.jobs.inc({ queue, outcome: 'ok' });
    return result;
  } catch (error) {
    m.jobs.inc({ queue, outcome: 'failed' });
    throw error;
  } finally {
    end();
  }
}
