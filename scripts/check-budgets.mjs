// `npm run check:budgets`, run by `npm test` right after `npm run build`: cheap, deterministic checks on
// the build output, no server. For each home page (/, /id/, /es/, /ph/ → .next/server/app/{en,id,es,en-PH}.html):
//  - first-load JS: the gzip (level 9) size of every script the prerendered HTML references, noModule polyfills
//    excepted — the same measure as bench/weight.ts — must stay within the floor + 25 KiB. The floor is a bare
//    Next page's first-load JS, measured by `npm run bench:weight` and recorded in bench/floor.json for the Next and
//    React versions it was measured with; another version fails here until it is measured again.
//    The home pages were at +28.7 KiB on 2026-11-24 (budget +29), react-hook-form's 12.2 KiB gz among it; since
//    the locate box loads its form on the visitor's first touch of the box (components/locate/locate-box-form.tsx)
//    they are at +16.6 KiB, and the budget is back at its target, +25 KiB (site links stay next/link).
//  - HTML: the gzip (level 9) size of the prerendered page — its markup and the RSC payload inlined in it, what a
//    phone downloads — must stay within 20 KiB.
//  - Text on the server only: the text of the server-rendered sections (components/site/home-sections.tsx, the
//    footer) is in no browser chunk — a section turned into a client component would ship its catalogue text as
//    code. Checked on the first FAQ answer and the last feature card of each page's language.
// Exits 1 with the figures when a page is over; prints them either way.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { firstLoadScripts } from './page-scripts.mjs';

const root = path.resolve(import.meta.dirname, '..');
const next = path.join(root, '.next');
const JS_BUDGET_KIB = 25;
const HTML_LIMIT_GZIP_KIB = 20;
const PAGES = { '/': 'en', '/id/': 'id', '/es/': 'es', '/ph/': 'en-PH' };

const version = (name) =>
  JSON.parse(readFileSync(path.join(root, 'node_modules', name, 'package.json'), 'utf8')).version;
const floor = JSON.parse(readFileSync(path.join(root, 'bench', 'floor.json'), 'utf8'));
const versions = { next: version('next'), react: version('react') };
if (floor.next !== versions.next || floor.react !== versions.react) {
  console.error(
    `bench/floor.json was measured with next ${floor.next} and react ${floor.react}; this build uses next ` +
      `${versions.next} and react ${versions.react}. Run npm run bench:weight to measure the floor again.`,
  );
  process.exit(1);
}

/** `text` escaped the way React escapes text in HTML. */
const escapeHtml = (text) =>
  text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#x27;');
/** Texts of the server-rendered sections in `lang` (the first FAQ answer, the last feature card), as written. */
const staticTexts = (lang) => {
  const messages = JSON.parse(readFileSync(path.join(root, 'messages', `${lang}.json`), 'utf8'));
  return [messages.Faq.q1Description, messages.Home.feature6Description];
};
const chunksDir = path.join(next, 'static', 'chunks');
const browserChunks = readdirSync(chunksDir, { recursive: true })
  .filter((file) => String(file).endsWith('.js'))
  .map((file) => readFileSync(path.join(chunksDir, String(file)), 'utf8'));

let over = false;
const rows = [];
const problems = [];
for (const [page, file] of Object.entries(PAGES)) {
  const html = readFileSync(path.join(next, 'server', 'app', `${file}.html`), 'utf8');
  let js = 0;
  for (const src of firstLoadScripts(html)) {
    if (!src.startsWith('/_next/')) throw new Error(`${page}: unexpected script ${src}`);
    js += gzipSync(readFileSync(path.join(next, decodeURIComponent(src.slice('/_next/'.length)))), { level: 9 }).length;
  }
  const extraKiB = (js - floor.firstLoadBytes) / 1024;
  const htmlGzipKiB = gzipSync(html, { level: 9 }).length / 1024;
  const jsOk = extraKiB <= JS_BUDGET_KIB;
  const htmlOk = htmlGzipKiB <= HTML_LIMIT_GZIP_KIB;
  for (const text of staticTexts(file.split('-')[0])) {
    if (!html.includes(escapeHtml(text)))
      problems.push(`${page}: a server-rendered section's text is missing from the HTML: ${text.slice(0, 60)}…`);
    if (browserChunks.some((chunk) => chunk.includes(text.slice(0, 60))))
      problems.push(`${page}: a server-rendered section's text is in a browser chunk: ${text.slice(0, 60)}…`);
  }
  over ||= !jsOk || !htmlOk;
  rows.push(
    `${page.padEnd(5)} JS ${(js / 1024).toFixed(1)} KiB gz = floor ${extraKiB >= 0 ? '+' : ''}${extraKiB.toFixed(1)} KiB ` +
      `(budget +${JS_BUDGET_KIB}) ${jsOk ? 'ok' : 'OVER'}; HTML ${htmlGzipKiB.toFixed(1)} KiB gz ` +
      `(limit ${HTML_LIMIT_GZIP_KIB}) ${htmlOk ? 'ok' : 'OVER'}`,
  );
}
console.log(
  `first-load JS floor: ${(floor.firstLoadBytes / 1024).toFixed(1)} KiB gz (bench/floor.json, ${floor.measured})`,
);
for (const row of rows) console.log(row);
for (const problem of problems) console.error(problem);
if (problems.length) process.exit(1);
if (over) {
  console.error('A home page is over its budget.');
  process.exit(1);
}
