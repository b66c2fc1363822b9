// `npm run bench:live` (after `npm run build`): bench/live.ts once on each engine of the live broker
// (docs/decisions/0019-live-broker.md), PostgreSQL's NOTIFY then Redis Streams, each in a process of its own with its
// own app process, embedded PostgreSQL and, for Redis, a redis-server; each writes its full report
// (bench/live-report-postgres.md, bench/live-report-redis.md), and bench/live-report.md sets their headline figures
// side by side. BENCH_LIVE_STREAMS, BENCH_LIVE_RATED, BENCH_LIVE_RATE and BENCH_LIVE_SECONDS reach both runs.
import { fork } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const STREAMS = Number(process.env.BENCH_LIVE_STREAMS ?? 5000);
const RATED = Number(process.env.BENCH_LIVE_RATED ?? 100);
const RATE = Number(process.env.BENCH_LIVE_RATE ?? 200);
const SECONDS = Number(process.env.BENCH_LIVE_SECONDS ?? 20);
const ms = (x: number) => (Number.isFinite(x) ? `${x.toFixed(x < 10 ? 1 : 0)} ms` : '—');

/** The headline figures of one engine's run, for the side-by-side report. */
export type EngineSummary = {
  engine: 'postgres' | 'redis';
  streams: number;
  /** The rate one instance is rated for (fixes a second), and its phase's figures (ms) and goal. */
  ratedRate: number;
  ratedAnswerP99: number;
  ratedSentP95: number;
  ratedSentP99: number;
  ratedGoal: string;
  /** The overload phase's offered rate, and what it took (fixes a second). */
  rate: number;
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
its own app process, embedded PostgreSQL and, for Redis, a local redis-server; ${STREAMS} streams, fixes through the API
for ${SECONDS} s at ${RATED}/s (the rate one instance is rated for, docs/deploy.md), then for ${SECONDS} s at ${RATE}/s
(overload). Each engine's full report:
[live-report-postgres.md](live-report-postgres.md), [live-report-redis.md](live-report-redis.md).

| | PostgreSQL (NOTIFY, the default) | Redis Streams (\`REDIS_URL\`) |
| --- | --- | --- |
${[
  row('streams open', (e) => `${e.streams}`),
  row('RSS per open stream', (e) => `${e.kibPerStream.toFixed(1)} KiB`),
  row(`**at ${RATED} fixes/s**: the \`PUT\` answered, p99`, (e) => ms(e.ratedAnswerP99)),
  row(
    `at ${RATED} fixes/s: fix sent → \`position\` event, p95 / p99`,
    (e) => `${ms(e.ratedSentP95)} / ${ms(e.ratedSentP99)}`,
  ),
  row(`at ${RATED} fixes/s: goal`, (e) => e.ratedGoal),
  row(`**at ${RATE} fixes/s offered**: fixes a second taken`, (e) => e.fixesPerSecond.toFixed(0)),
  row(`at ${RATE} fixes/s: fix sent → \`position\` event, p50 / p99`, (e) => `${ms(e.sentP50)} / ${ms(e.sentP99)}`),
  row(`at ${RATE} fixes/s: the \`PUT\` answered, p99`, (e) => ms(e.answerP99)),
  row(
    `at ${RATE} fixes/s: fix committed → \`position\` event, p50 / p99`,
    (e) => `${ms(e.fanOutP50)} / ${ms(e.fanOutP99)}`,
  ),
  row(`at ${RATE} fixes/s: the database's commits a second`, (e) => e.commitsPerSecond.toFixed(0)),
  row(`at ${RATE} fixes/s: position events missing / doubled`, (e) => `${e.missing} / ${e.doubled}`),
  row(`at ${RATE} fixes/s: goal (nothing lost)`, (e) => e.goal),
].join('\n')}
`;
  writeFileSync(path.join(root, 'bench', 'live-report.md'), report);
  console.log(report);
}

await bothEngines();
