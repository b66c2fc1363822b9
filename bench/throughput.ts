// `npm run bench:throughput`: requests per second of this app's production build (`npm run build`
// first; `npm start` on a throwaway embedded PostgreSQL) against a bare Next app of the same versions built in the
// same run (bench/bare-app.ts), with autocannon. Pairs, each run alternately (this app, then the bare app, then the
// other way round) so drifts of a shared 2-core machine fall on both sides:
//   GET /api_f/v1/portal/priceSetup  vs  a bare route handler answering a small JSON envelope   (goal ≥ 0.70)
//   GET /es/                         vs  a bare static page padded with ASCII to the same HTML bytes (goal ≥ 0.90)
//   GET /es/                         vs  a bare static page of /es/'s own text, same bytes
//   GET /es/                         vs  a bare `[locale]` page of /es/'s own text, same bytes (like for like)
//   bare static page of /es/'s text      vs  the ASCII one (what the text's characters cost any app)
//   bare `[locale]` page of /es/'s text  vs  the ASCII static page (the most any Next app can reach on that pair)
//   GET / (English: proxy.ts rewrites it)  vs  the bare page behind a bare proxy (what our proxy adds to any proxy)
//   bare static page behind a bare proxy  vs  the same page without (what any proxy costs)
// Writes bench/throughput-report.md with the median req/s of each side and their ratio.
import autocannon from 'autocannon';
import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildBareApp, serveBareApp } from './bare-app';
import { startBenchServer } from './server';

const root = path.resolve(import.meta.dirname, '..');
const PORT = 3334;
const BARE_PORT = 3335;
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const DURATION_S = Number(process.env.BENCH_DURATION ?? 8);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

/** req/s of `url` over DURATION_S after a 2 s warm-up; throws when any answer is not 2xx. */
async function reqPerSec(url: string): Promise<number> {
  await autocannon({ url, connections: CONNECTIONS, duration: 2 });
  const r = await autocannon({ url, connections: CONNECTIONS, duration: DURATION_S });
  if (r.non2xx || r.errors) throw new Error(`${url}: ${r.non2xx} non-2xx answers, ${r.errors} errors`);
  return r.requests.average;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * The visible text of a server-rendered page, one entry per text node: scripts, styles and tags dropped, and the
 * five escapes React writes (`&amp; &lt; &gt; &quot; &#x27;`) decoded. The bare app's text pages are made of it.
 */
function visibleText(html: string): string[] {
  const entities: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#x27;': "'" };
  return html
    .replace(/<(script|style)\b[^>]*>[\s\S]*?<\/\1>/g, '')
    .split(/<[^>]*>/)
    .map((t) => t.replace(/&(?:amp|lt|gt|quot|#x27);/g, (e) => entities[e]).trim())
    .filter((t) => t.length > 1);
}

const server = await startBenchServer(PORT, 55437, { LOG_LEVEL: process.env.LOG_LEVEL ?? 'info' });
let bare: { origin: string; stop: () => void } | undefined;
try {
  const esHtml = await (await fetch(`${server.origin}/es/`)).text();
  const esBytes = Buffer.byteLength(esHtml);
  const enBytes = Buffer.byteLength(await (await fetch(`${server.origin}/`)).text());
  const built = buildBareApp({ bytes: esBytes, text: visibleText(esHtml) });
  bare = await serveBareApp(built.dir, BARE_PORT);
  const pairs = [
    {
      name: 'API: `GET /api_f/v1/portal/priceSetup` vs a bare route handler',
      ours: `${server.origin}/api_f/v1/portal/priceSetup`,
      bare: `${bare.origin}/api/bare/`,
      goal: 0.7,
    },
    {
      name: `Page: \`GET /es/\` (${esBytes} B) vs a bare static page padded with ASCII (${built.staticHtmlBytes} B)`,
      ours: `${server.origin}/es/`,
      bare: `${bare.origin}/static/`,
      goal: 0.9,
    },
    {
      name: `Page: \`GET /es/\` vs a bare static page of /es/'s own text (${built.textHtmlBytes} B)`,
      ours: `${server.origin}/es/`,
      bare: `${bare.origin}/static-text/`,
      goal: 0,
    },
    {
      name: `Page: \`GET /es/\` vs a bare \`[locale]\` page of /es/'s own text (${built.localeHtmlBytes} B)`,
      ours: `${server.origin}/es/`,
      bare: `${bare.origin}/es/`,
      goal: 0,
    },
    {
      name: "Text: the bare static page of /es/'s text vs the ASCII-padded one",
      ours: `${bare.origin}/static-text/`,
      bare: `${bare.origin}/static/`,
      goal: 0,
    },
    {
      name: "Route shape: the bare `[locale]` page of /es/'s text vs the ASCII-padded static page",
      ours: `${bare.origin}/es/`,
      bare: `${bare.origin}/static/`,
      goal: 0,
    },
    {
      name: `Proxy: \`GET /\` (${enBytes} B, rewritten to /en/ by proxy.ts) vs the bare page behind a bare proxy`,
      ours: `${server.origin}/`,
      bare: `${bare.origin}/proxied/`,
      goal: 0,
    },
    {
      name: 'Framework: the bare static page behind a bare proxy vs without',
      ours: `${bare.origin}/proxied/`,
      bare: `${bare.origin}/static/`,
      goal: 0,
    },
  ];
  const rows: string[] = [];
  for (const pair of pairs) {
    const ours: number[] = [];
    const theirs: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      if (round % 2 === 0) {
        ours.push(await reqPerSec(pair.ours));
        theirs.push(await reqPerSec(pair.bare));
      } else {
        theirs.push(await reqPerSec(pair.bare));
        ours.push(await reqPerSec(pair.ours));
      }
      console.log(pair.name, 'round', round + 1, Math.round(ours.at(-1)!), Math.round(theirs.at(-1)!));
    }
    const ratio = median(ours) / median(theirs);
    rows.push(
      `| ${pair.name} | ${ours.map(Math.round).join(', ')} | ${theirs.map(Math.round).join(', ')} | ${Math.round(median(ours))} / ${Math.round(median(theirs))} = **${ratio.toFixed(2)}** | ${pair.goal ? `≥ ${pair.goal.toFixed(2)} ${ratio >= pair.goal ? 'met' : '**missed**'}` : '—'} |`,
    );
  }
  const versions = ['next', 'react']
    .map((n) => `${n} ${JSON.parse(readFileSync(path.join(root, 'node_modules', n, 'package.json'), 'utf8')).version}`)
    .join(', ');
  const report = `# Throughput

\`npm run bench:throughput\` (bench/throughput.ts), ${new Date().toISOString().slice(0, 16)}Z, on this machine
(${os.cpus().length} cores, Node ${process.version}, ${versions}). autocannon, ${CONNECTIONS} connections,
${DURATION_S} s per run after a 2 s warm-up, ${ROUNDS} rounds alternating which side runs first; the ratio is
median / median. This app: \`npm start\`, production build, embedded PostgreSQL, request log at
\`LOG_LEVEL=${process.env.LOG_LEVEL ?? 'info'}\`; bare: a bare Next app of the same versions built in the same run
(\`next start\`, bench/bare-app.ts). The rows named Text, Route shape and Framework compare bare pages with each other:
what the text, the route shape and a proxy cost any Next app. The load generator shares the 2 cores with the
server, so absolute figures are low; the ratios are the measure.

| pair (left vs right) | left, req/s per run | right, req/s per run | median ratio | goal |
| --- | --- | --- | --- | --- |
${rows.join('\n')}
`;
  writeFileSync(path.join(root, 'bench', 'throughput-report.md'), report);
  console.log(report);
} finally {
  bare?.stop();
  server.stop();
}
