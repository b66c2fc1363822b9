// `npm run bench:weight`: first-load JS of the home page per locale vs a bare Next 16 page built in the same run.
// First-load JS = the sum of the gzip sizes of the scripts the HTML references (async chunks loaded later are not
// counted). Budget: home ≤ floor + 25 KiB gz. Writes bench/report.md and the floor to
// bench/floor.json (read by scripts/check-budgets.mjs in `npm test`); exits 1 when over budget.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { firstLoadScripts } from '../scripts/page-scripts.mjs';
import { buildBareApp, run, serveBareApp, waitFor } from './bare-app';
import { startBenchServer } from './server';

const root = path.resolve(import.meta.dirname, '..');
const BUDGET_KIB = 25;
const PAGES = ['/', '/id/', '/es/', '/ph/'];

/** gzip bytes of every script the HTML of `url` references. */
async function firstLoadJs(origin: string, pathname: string): Promise<{ bytes: number; scripts: number }> {
  const html = await (await fetch(origin + pathname)).text();
  const srcs = firstLoadScripts(html);
  let bytes = 0;
  for (const src of srcs)
    bytes += gzipSync(Buffer.from(await (await fetch(new URL(src, origin))).arrayBuffer()), { level: 9 }).length;
  return { bytes, scripts: srcs.length };
}

const bare = buildBareApp();
run('npm', ['run', 'build'], root);

const floor = await serveBareApp(bare.dir, 3311);
const app = await startBenchServer(3312, 55439);
try {
  await waitFor(`${app.origin}/api_f/v1/health`);
  const base = await firstLoadJs(floor.origin, '/');
  const rows: string[] = [];
  let over = false;
  for (const page of PAGES) {
    const m = await firstLoadJs(app.origin, page);
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
    'that module-capable browsers skip; chunks loaded later (the locate box’s form and zod validation, loaded when the',
    'box is first touched, and the `fetch` transport of its API calls) are not part of it.',
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
  // The floor for the build-output check of `npm test` (scripts/check-budgets.mjs), with the versions it holds for.
  const version = (name: string) =>
    JSON.parse(readFileSync(path.join(root, 'node_modules', name, 'package.json'), 'utf8')).version as string;
  writeFileSync(
    path.join(root, 'bench', 'floor.json'),
    JSON.stringify(
      {
        next: version('next'),
        react: version('react'),
        firstLoadBytes: base.bytes,
        scripts: base.scripts,
        measured: `${new Date().toISOString().slice(0, 10)} by npm run bench:weight`,
      },
      null,
      2,
    ) + '\n',
  );
  console.log(report);
  process.exitCode = over ? 1 : 0;
} finally {
  floor.stop();
  app.stop();
}
