// The bare Next app the benchmarks compare against: the same next/react/react-dom versions as this app,
// built in a temp directory outside the repo (so Next does not pick up this app's proxy, instrumentation or config)
// and served with `next start`. It has:
//   /            one <h1> (the first-load JS floor and the Lighthouse reference page);
//   /static/     a static page whose HTML is padded with ASCII filler to a given size (the reference for /es/);
//   /proxied/    the same padded page behind a bare proxy (proxy.js returning NextResponse.next()): what any proxy
//                costs, so the report can tell this app's proxy work from the framework's;
//   /api/bare/   a route handler answering a small JSON envelope like the API's (the reference for the API);
// and, when given a page's text (the throughput bench passes the visible text of /es/), two pages made of that text
// padded to the same size, so the report can tell what the text and the route shape cost from what this app adds:
//   /static-text/  a static page of that text;
//   /es/           the same text under a `[locale]` dynamic segment prerendered for `es` (this app's route shape).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');

/** Runs a command to completion with inherited output; throws when it fails. */
export function run(cmd: string, args: string[], cwd: string, env: Record<string, string> = {}) {
  const r = spawnSync(cmd, args, {
    cwd,
    stdio: 'inherit',
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1', ...env },
  });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed in ${cwd}`);
}

/** Resolves once `url` answers 2xx; throws after `ms` (default 2 minutes). */
export async function waitFor(url: string, ms = 120_000) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`timed out waiting for ${url}`);
}

const version = (name: string) =>
  JSON.parse(readFileSync(path.join(root, 'node_modules', name, 'package.json'), 'utf8')).version as string;

/**
 * A padded page's source: a heading and `count` paragraphs taken in turn from `paragraphs`. With `locale`, the page
 * is the `[locale]` route prerendered for that one locale (no other value is served).
 */
function paddedPage(paragraphs: string[], count: number, locale?: string): string {
  const shown = Array.from({ length: count }, (_, i) => paragraphs[i % paragraphs.length]);
  const head = locale
    ? [
        'export const dynamicParams = false;',
        `export function generateStaticParams() { return [{ locale: ${JSON.stringify(locale)} }]; }`,
        `const paragraphs = ${JSON.stringify(shown)};`,
        'export default async function P({ params }) {',
        '  const { locale } = await params;',
        '  return <main lang={locale}><h1>Static</h1>{paragraphs.map((p, i) => <p key={i}>{p}</p>)}</main>;',
      ]
    : [
        "export const dynamic = 'force-static';",
        `const paragraphs = ${JSON.stringify(shown)};`,
        'export default function P() {',
        '  return <main><h1>Static</h1>{paragraphs.map((p, i) => <p key={i}>{p}</p>)}</main>;',
      ];
  return [...head, '}', ''].join('\n');
}

/** ASCII filler: paragraphs of 60 words `word0` … `word9`. */
const FILLER = [Array.from({ length: 60 }, (_, i) => `word${i % 10}`).join(' ')];

/** What /static/ (and the text pages, when `text` is given) are padded to. */
export type Padding = {
  /** The HTML size to reach, bytes (within 1 %). */
  bytes: number;
  /** Paragraphs of a page's visible text for /static-text/ and /es/ (omitted: those pages are not built). */
  text?: string[];
};

/** The built bare app: its directory and the prerendered HTML size of each padded page, bytes. */
export type BareApp = { dir: string; staticHtmlBytes: number; textHtmlBytes?: number; localeHtmlBytes?: number };

/**
 * Builds the bare app in `$TMPDIR/bench-bare` (npm install from the cache where possible, then `next build`). With
 * `padding`, each padded page gets as many paragraphs as bring its prerendered HTML within 1 % of `padding.bytes`
 * (one rebuild at most after the first measurement; each paragraph is sent twice, in the HTML and the RSC payload).
 */
export function buildBareApp(padding?: Padding): BareApp {
  const dir = path.join(tmpdir(), 'bench-bare');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(path.join(dir, 'app', 'api', 'bare'), { recursive: true });
  writeFileSync(
    path.join(dir, 'package.json'),
    JSON.stringify({
      name: 'bench-bare',
      private: true,
      dependencies: { next: version('next'), react: version('react'), 'react-dom': version('react-dom') },
    }),
  );
  run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline'], dir);
  writeFileSync(path.join(dir, 'next.config.mjs'), 'export default { trailingSlash: true };\n');
  writeFileSync(
    path.join(dir, 'app', 'layout.jsx'),
    'export default function L({ children }) { return <html lang="en"><body>{children}</body></html>; }\n',
  );
  writeFileSync(
    path.join(dir, 'proxy.js'),
    [
      "import { NextResponse } from 'next/server';",
      'export function proxy() { return NextResponse.next(); }',
      "export const config = { matcher: ['/proxied/:path*'] };",
      '',
    ].join('\n'),
  );
  writeFileSync(path.join(dir, 'app', 'page.jsx'), 'export default function P() { return <h1>Hello</h1>; }\n');
  writeFileSync(
    path.join(dir, 'app', 'api', 'bare', 'route.js'),
    [
      "export const dynamic = 'force-dynamic';",
      '// The same envelope shape and about the same size as GET /api_f/v1/portal/priceSetup.',
      'export function GET() {',
      "  return Response.json({ success: 1, msg: 'OK', obj: { id: '00000000-0000-4000-8000-000000000000', currency: 'USD', amount: '0.99', listAmount: '0.99', monthlyAmount: '49.99', trialHours: 24, geolocations: 300 } });",
      '}',
      '',
    ].join('\n'),
  );
  // Each padded page: its folder under app/, the prerendered HTML it produces, its paragraphs and route shape.
  const pages = [
    { folder: 'static', html: 'static.html', paragraphs: FILLER },
    { folder: 'proxied', html: 'proxied.html', paragraphs: FILLER },
    ...(padding?.text?.length
      ? [
          { folder: 'static-text', html: 'static-text.html', paragraphs: padding.text },
          { folder: '[locale]', html: 'es.html', paragraphs: padding.text, locale: 'es' },
        ]
      : []),
  ].map((page) => ({ ...page, count: 0 }));
  const htmlBytes = (file: string) => statSync(path.join(dir, '.next', 'server', 'app', file)).size;
  const writePages = () => {
    for (const page of pages) {
      mkdirSync(path.join(dir, 'app', page.folder), { recursive: true });
      writeFileSync(
        path.join(dir, 'app', page.folder, 'page.jsx'),
        paddedPage(page.paragraphs, page.count, page.locale),
      );
    }
  };
  // First guess: each paragraph's characters twice (HTML and RSC payload); then a linear correction from what the
  // first build measured.
  const target = padding?.bytes ?? 0;
  for (const page of pages) {
    const perParagraph = (2 * page.paragraphs.reduce((n, p) => n + Buffer.byteLength(p), 0)) / page.paragraphs.length;
    page.count = Math.max(0, Math.round(target / (perParagraph + 20)));
  }
  writePages();
  run('npx', ['next', 'build'], dir);
  if (target && pages.some((page) => Math.abs(htmlBytes(page.html) - target) > target * 0.01)) {
    const empty = htmlBytes('index.html');
    for (const page of pages) {
      const perParagraph = (htmlBytes(page.html) - empty) / Math.max(1, page.count);
      page.count = Math.max(0, Math.round(page.count + (target - htmlBytes(page.html)) / perParagraph));
    }
    writePages();
    run('npx', ['next', 'build'], dir);
  }
  const size = (folder: string) => {
    const page = pages.find((p) => p.folder === folder);
    return page ? htmlBytes(page.html) : undefined;
  };
  return {
    dir,
    staticHtmlBytes: htmlBytes('static.html'),
    textHtmlBytes: size('static-text'),
    localeHtmlBytes: size('[locale]'),
  };
}

/** Serves the built bare app with `next start` on `port`; resolves once it answers. */
export async function serveBareApp(dir: string, port: number): Promise<{ origin: string; stop: () => void }> {
  const child: ChildProcess = spawn('npx', ['next', 'start', '-p', String(port)], {
    cwd: dir,
    stdio: 'ignore',
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' },
    detached: true,
  });
  const origin = `http://localhost:${port}`;
  const stop = () => {
    try {
      process.kill(-child.pid!, 'SIGTERM');
    } catch {}
  };
  try {
    await waitFor(`${origin}/`);
  } catch (error) {
    stop();
    throw error;
  }
  return { origin, stop };
}
