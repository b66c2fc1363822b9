// `npm run bench:live` (after `npm run build`): bench/live.ts once on each engine of the live broker
// (docs/decisions/0019-live-broker.md), PostgreSQL's NOTIFY then Redis Streams, each in a process of its own with its
// own app process, embedded PostgreSQL and, for Redis, a redis-server; each writes its full report
// (bench/live-report-postgres.md, bench/live-report-redis.md), and bench/live-report.md sets their headline figures
// side by side. BENCH_LIVE_STREAMS, BENCH_LIVE_RATE and BENCH_LIVE_SECONDS reach both runs.
import { fork } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const STREAMS = Number(process.env.BENCH_LIVE_STREAMS ?? 5000);
const RATE = Number(process.env.BENCH_LIVE_RATE ?? 200);
const SECONDS = Number(process.env.BENCH_LIVE_SECONDS ?? 20);
const ms = (x: number) => (Number.isFinite(x) ? `${x.toFixed(x < 10 ? 1 : 0)} ms` : '—');

/** The headline figures of one engine's run, for the side-by-side report. */
export type EngineSummary = {
  engine: 'postgres' | 'redis';
  streams: number;
  fixesPerSecond: number;
  /** Through the API: fix sent → `position` event, ms. */
  sentP50: number;
  sentP99: number;
  /** Through the API: fix committed (`recordedAt`) → `position` event, ms. */
  fanOutP50: number;
  fanOutP99: number;
  /** The `PUT`'s answer, p99 (ms). */
  answerP99: number;
  kibPerStream: number;
  commitsPerSecond: number;
  missing: number;
  doubled: number;
  goal: string;
};

/**
 * Both engines, one after the other, each run as its own process (its own app, database and, for Redis, redis-server),
 * each with its full report (bench/live-report-postgres.md, bench/live-report-redis.md); then bench/live-report.md sets
 * their headline figures side by side.
 */
async function bothEngines(): Promise<void> {
  const summaries: EngineSummary[] = [];
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'bench-live-'));
  for (const engine of ['postgres', 'redis'] as const) {
    const summary = path.join(tmp, `${engine}.json`);
    const child = fork(path.join(import.meta.dirname, 'live.ts'), [], {
      env: {
        ...process.env,
        BENCH_LIVE_BROKER: engine,
        BENCH_LIVE_OUT: path.join(root, 'bench', `live-report-${engine}.md`),
        BENCH_LIVE_SUMMARY: summary,
      },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    if (code !== 0) throw new Error(`bench:live on ${engine} ended with ${code}`);
    summaries.push(JSON.parse(readFileSync(summary, 'utf8')) as EngineSummary);
  }
  rmSync(tmp, { recursive: true, force: true });
  const row = (label: string, f: (e: EngineSummary) => string) => `| ${label} | ${summaries.map(f).join(' | ')} |`;
  const report = `# Live streams: both engines of the live broker side by side

Measured ${new Date().toISOString()} by \`npm run bench:live\` (${os.cpus().length} cores, Node ${process.version}): the
same run once on each engine of the live broker (docs/decisions/0019-live-broker.md), each in a process of its own with
its own app process, embedded PostgreSQL and, for Redis, a local redis-server; ${STREAMS} streams, fixes at ${RATE}/s
for ${SECONDS} s through the API, then the same into the database. Each engine's full report:
[live-report-postgres.md](live-report-postgres.md), [live-report-redis.md](live-report-redis.md).

| | PostgreSQL (NOTIFY, the default) | Redis Streams (\`REDIS_URL\`) |
| --- | --- | --- |
${[
  row('streams open', (e) => `${e.streams}`),
  row('fixes a second through the API', (e) => e.fixesPerSecond.toFixed(0)),
  row('fix sent → `position` event, p50 / p99', (e) => `${ms(e.sentP50)} / ${ms(e.sentP99)}`),
  row('the `PUT` answered, p99', (e) => ms(e.answerP99)),
  row('fix committed → `position` event, p50 / p99', (e) => `${ms(e.fanOutP50)} / ${ms(e.fanOutP99)}`),
  row('RSS per open stream', (e) => `${e.kibPerStream.toFixed(1)} KiB`),
  row("the database's commits a second (API phase)", (e) => e.commitsPerSecond.toFixed(0)),
  row('position events missing / doubled (API phase)', (e) => `${e.missing} / ${e.doubled}`),
  row('goal', (e) => e.goal),
].join('\n')}

The phase "into the database" of each full report writes positions without the app, so no broker announces them
(docs/decisions/0019-live-broker.md: the app announces after commit): its streams receive nothing, and it is no longer
a measure of the fan-out. The figures above are the API phase's.
`;
  writeFileSync(path.join(root, 'bench', 'live-report.md'), report);
  console.log(report);
}

await bothEngines();
