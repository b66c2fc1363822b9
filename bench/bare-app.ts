// The bare Next app the benchmarks compare against (issue 14 §5): the same next/react/react-dom versions as this app,
// built in a temp directory outside the repo (so Next does not pick up this app's proxy, instrumentation or config)
// and served with `next start`. It has:
//   /            one <h1> (the first-load JS floor and the Lighthouse reference page);
//   /static/     a static page whose HTML is padded to a given size (the throughput reference for /es/);
//   /proxied/    the same padded page behind a bare proxy (proxy.js returning NextResponse.next()): what any proxy
//                costs, so the report can tell this app's proxy work from the framework's;
//   /api/bare/   a route handler answering a small JSON envelope like the API's (the reference for the API).
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

/** The padding page's source: a heading and `words` words of filler text in paragraphs. */
function staticPage(words: number): string {
  const paragraphs: string[] = [];
  for (let left = words; left > 0; left -= 60) {
    paragraphs.push(Array.from({ length: Math.min(60, left) }, (_, i) => `word${i % 10}`).join(' '));
  }
  return [
    "export const dynamic = 'force-static';",
    `const paragraphs = ${JSON.stringify(paragraphs)};`,
    'export default function P() {',
    '  return <main><h1>Static</h1>{paragraphs.map((p, i) => <p key={i}>{p}</p>)}</main>;',
    '}',
    '',
  ].join('\n');
}

/**
 * Builds the bare app in `$TMPDIR/bench-bare` (npm install from the cache where possible, then `next build`). With
 * `staticBytes`, /static/ is padded until its prerendered HTML is within 1 % of that many bytes (one rebuild at
 * most after the first measurement). Returns the directory and the HTML size of /static/ in bytes.
 */
export function buildBareApp(staticBytes = 0): { dir: string; staticHtmlBytes: number } {
  const dir = path.join(tmpdir(), 'bench-bare');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(path.join(dir, 'app', 'static'), { recursive: true });
  mkdirSync(path.join(dir, 'app', 'proxied'), { recursive: true });
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
  const html = () => statSync(path.join(dir, '.next', 'server', 'app', 'static.html')).size;
  // Each word of filler is sent twice (HTML and RSC payload): about 12 bytes per word.
  let words = staticBytes ? Math.max(0, Math.round(staticBytes / 12)) : 0;
  const writePages = () => {
    writeFileSync(path.join(dir, 'app', 'static', 'page.jsx'), staticPage(words));
    writeFileSync(path.join(dir, 'app', 'proxied', 'page.jsx'), staticPage(words));
  };
  writePages();
  run('npx', ['next', 'build'], dir);
  if (staticBytes && Math.abs(html() - staticBytes) > staticBytes * 0.01) {
    words = Math.max(0, Math.round(words + (staticBytes - html()) / 12));
    writePages();
    run('npx', ['next', 'build'], dir);
  }
  return { dir, staticHtmlBytes: html() };
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
