// `npm run bench:profile`: where the server's time goes under load. Starts the production build
// (`npm run build` first) with `node --cpu-prof`, loads one URL at a time with autocannon (16 connections, 10 s),
// stops the server so V8 writes the profile, and summarises it: self time by package / area and the heaviest
// functions. Writes bench/profile-report.md; the raw .cpuprofile files stay in $TMPDIR/bench-profile for Chrome's
// performance panel.
import autocannon from 'autocannon';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import { startBenchServer } from './server';

const root = path.resolve(import.meta.dirname, '..');
const TARGETS = (process.env.BENCH_PROFILE_PATHS ?? '/api_f/v1/portal/priceSetup,/es/').split(',');
const DURATION_S = Number(process.env.BENCH_DURATION ?? 10);

type Node = { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] };
type Profile = { nodes: Node[]; samples: number[]; timeDeltas: number[] };

/** The area a script URL belongs to: a package name, Next's server runtime, Node itself, or this app. */
function areaOf(url: string): string {
  if (!url) return '(native / GC / idle)';
  if (url.startsWith('node:')) return 'node core';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) {
    if (pkg[1] === 'next') {
      if (url.includes('compiled/react-dom') || url.includes('react-dom')) return 'next: react-dom (SSR)';
      if (url.includes('/server/')) return 'next: server runtime';
      return 'next: other';
    }
    return pkg[1];
  }
  if (url.includes('.next/server/chunks')) return 'app bundle (.next/server/chunks)';
  return url.replace(/^file:\/\//, '').replace(root, '.');
}

/** Self time per area and per function (ms) from one .cpuprofile. */
function summarise(file: string) {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000));
  const areas = new Map<string, number>();
  const fns = new Map<string, number>();
  let total = 0;
  for (const [id, ms] of self) {
    const node = byId.get(id)!;
    const name = node.callFrame.functionName || '(anonymous)';
    if (name === '(idle)') continue;
    total += ms;
    const area = ['(garbage collector)', '(program)'].includes(name) ? name : areaOf(node.callFrame.url);
    areas.set(area, (areas.get(area) ?? 0) + ms);
    const key = `${name} — ${areaOf(node.callFrame.url)}:${node.callFrame.lineNumber + 1}`;
    fns.set(key, (fns.get(key) ?? 0) + ms);
  }
  const top = (m: Map<string, number>, n: number) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([k, v]) => `| ${k} | ${v.toFixed(0)} | ${((100 * v) / total).toFixed(1)} % |`);
  return { total, areas: top(areas, 15), fns: top(fns, 20) };
}

const sections: string[] = [];
for (const [i, target] of TARGETS.entries()) {
  const dir = path.join(tmpdir(), 'bench-profile', String(i));
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const server = await startBenchServer(3336, 55438, {
    SERVE_NODE_ARGS: `--cpu-prof --cpu-prof-dir=${dir}`,
  });
  let result: autocannon.Result;
  try {
    await autocannon({ url: server.origin + target, connections: 16, duration: 2 });
    result = await autocannon({ url: server.origin + target, connections: 16, duration: DURATION_S });
  } finally {
    server.stop();
  }
  // The web server's profile (the largest, should a child process write one too).
  let file = '';
  for (let wait = 0; wait < 60 && !file; wait++) {
    await new Promise((r) => setTimeout(r, 1000));
    const files = readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'));
    if (files.length >= 1)
      file = path.join(
        dir,
        files.sort((a, b) => statSync(path.join(dir, b)).size - statSync(path.join(dir, a)).size)[0],
      );
  }
  if (!file) throw new Error(`no profile written in ${dir}`);
  const s = summarise(file);
  sections.push(
    [
      `## \`GET ${target}\``,
      '',
      `${Math.round(result.requests.average)} req/s over ${DURATION_S} s (16 connections); ${s.total.toFixed(0)} ms of sampled CPU in the server process (start-up and warm-up included). Profile: \`${file}\`.`,
      '',
      '| area (self time) | ms | share |',
      '| --- | --- | --- |',
      ...s.areas,
      '',
      '| function (self time) | ms | share |',
      '| --- | --- | --- |',
      ...s.fns,
      '',
    ].join('\n'),
  );
}

const report = `# CPU profile under load

\`npm run bench:profile\` (bench/profile.ts), ${new Date().toISOString().slice(0, 16)}Z, ${os.cpus().length} cores, Node
${process.version}: the production build started with \`node --cpu-prof\`, one URL loaded at a time with autocannon.
Self time only (time spent in the function itself, not its callees). Findings and what was changed: bench/profiling-notes.md.

${sections.join('\n')}`;
writeFileSync(path.join(root, 'bench', 'profile-report.md'), report);
console.log(report);
