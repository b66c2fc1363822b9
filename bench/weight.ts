// `npm run bench:weight`: first-load JS of the home page per locale vs a bare Next 16 page built in the same run.
// First-load JS = the sum of the gzip sizes of the scripts the HTML references (async chunks loaded later are not
// counted). Budget (ISSUE 2): home ≤ floor + 25 KiB gz. Writes bench/report.md; exits 1 when over budget.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

const root = path.resolve(import.meta.dirname, '..');
const BUDGET_KIB = 25;
const PAGES = ['/', '/id/', '/es/', '/ph/'];

function run(cmd: string, args: string[], cwd: string) {
  const r = spawnSync(cmd, args, { cwd, stdio: 'inherit', env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' } });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed in ${cwd}`);
}

async function waitFor(url: string, ms = 120_000) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`timed out waiting for ${url}`);
}

/** gzip bytes of every script the HTML of `url` references. */
async function firstLoadJs(origin: string, pathname: string): Promise<{ bytes: number; scripts: number }> {
  const html = await (await fetch(origin + pathname)).text();
  // noModule scripts (legacy polyfills) are skipped by every browser that runs modules, so they are not counted.
  const tags = [...html.matchAll(/<script[^>]*>/g)].map((m) => m[0]).filter((tag) => !/\bnomodule\b/i.test(tag));
  const srcs = [...new Set(tags.map((tag) => /src="([^"]+)"/.exec(tag)?.[1]).filter((s): s is string => !!s))];
  let bytes = 0;
  for (const src of srcs)
    bytes += gzipSync(Buffer.from(await (await fetch(new URL(src, origin))).arrayBuffer()), { level: 9 }).length;
  return { bytes, scripts: srcs.length };
}

function serve(cmd: string, args: string[], cwd: string, env: Record<string, string>): ChildProcess {
  return spawn(cmd, args, { cwd, stdio: 'ignore', env: { ...process.env, ...env } });
}

// The floor project lives outside this repo, so Next does not pick up this app's files (instrumentation, proxy).
const tmp = path.join(tmpdir(), 'bench-weight');
rmSync(tmp, { recursive: true, force: true });
const floorDir = path.join(tmp, 'floor');
mkdirSync(path.join(floorDir, 'app'), { recursive: true });
const version = (name: string) =>
  JSON.parse(readFileSync(path.join(root, 'node_modules', name, 'package.json'), 'utf8')).version;
writeFileSync(
  path.join(floorDir, 'package.json'),
  JSON.stringify({
    name: 'floor',
    private: true,
    dependencies: { next: version('next'), react: version('react'), 'react-dom': version('react-dom') },
  }),
);
// The same next/react versions as the app, installed from the npm cache where possible.
run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline'], floorDir);
writeFileSync(
  path.join(floorDir, 'app', 'layout.jsx'),
  'export default function L({ children }) { return <html lang="en"><body>{children}</body></html>; }\n',
);
writeFileSync(path.join(floorDir, 'app', 'page.jsx'), 'export default function P() { return <h1>Hello</h1>; }\n');

run('npx', ['next', 'build'], floorDir);
run('npm', ['run', 'build'], root);

const floorPort = '3311';
const appPort = '3312';
const floor = serve('npx', ['next', 'start', '-p', floorPort], floorDir, {});
const app = serve(process.execPath, ['e2e/serve.mjs'], root, { PORT: appPort });
try {
  await waitFor(`http://localhost:${floorPort}/`);
  await waitFor(`http://localhost:${appPort}/api_f/v1/health`);
  const base = await firstLoadJs(`http://localhost:${floorPort}`, '/');
  const rows: string[] = [];
  let over = false;
  for (const page of PAGES) {
    const m = await firstLoadJs(`http://localhost:${appPort}`, page);
    const extra = (m.bytes - base.bytes) / 1024;
    const ok = extra <= BUDGET_KIB;
    over ||= !ok;
    rows.push(
      `| \`${page}\` | ${(m.bytes / 1024).toFixed(1)} | ${m.scripts} | ${extra >= 0 ? '+' : ''}${extra.toFixed(1)} | ${ok ? 'within' : '**over**'} |`,
    );
  }
  const report = [
    '# Page weight',
    '',
    `Measured ${new Date().toISOString()} by \`npm run bench:weight\` on a production build (\`next build\`, Turbopack).`,
    'First-load JS = sum of the gzip (level 9) sizes of the scripts referenced by the HTML, except noModule polyfills',
    'that module-capable browsers skip; chunks loaded later (the API client and the zod validation, loaded when the',
    'locate box is first used) are not part of it.',
    '',
    `Floor: a bare Next 16 page (one \`<h1>\`) built in the same run: **${(base.bytes / 1024).toFixed(1)} KiB** in ${base.scripts} scripts.`,
    `Budget: home ≤ floor + ${BUDGET_KIB} KiB.`,
    '',
    '| page | first-load JS (KiB gz) | scripts | vs floor (KiB) | budget |',
    '| --- | --- | --- | --- | --- |',
    ...rows,
    '',
  ].join('\n');
  writeFileSync(path.join(root, 'bench', 'report.md'), report);
  console.log(report);
  process.exitCode = over ? 1 : 0;
} finally {
  floor.kill('SIGTERM');
  app.kill('SIGTERM');
}
