// `npm start`: serves the production build with Next's request handler behind a plain Node HTTP server, so the API
// learns the TCP peer address (Next itself keeps a client-sent X-Forwarded-For and drops the socket address).
// `x-peer-ip` is always overwritten here; server/services/client-ip.ts trusts X-Forwarded-For only from
// TRUSTED_PROXIES peers.
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import next from 'next';
import { guardRequest, refuseConnect } from './request-guard.mjs';

// In the container image (Next's standalone output) there is no next.config.ts: its resolved configuration comes from
// the build, as Next's own standalone server.js passes it.
if (!existsSync('next.config.ts') && existsSync('.next/required-server-files.json')) {
  const { config } = JSON.parse(readFileSync('.next/required-server-files.json', 'utf8'));
  process.env.__NEXT_PRIVATE_STANDALONE_CONFIG = JSON.stringify(config);
}

const port = Number(process.env.PORT ?? 3000);
// The address to listen on (HOSTNAME, e.g. 127.0.0.1 behind a reverse proxy); all interfaces by default.
const hostname = process.env.HOSTNAME ?? '0.0.0.0';
// Next is always told `localhost`: it builds the proxy's request URLs on that name and treats a rewrite to another
// origin as external (proxied over HTTP). Given the bound address instead, every page rewrite became a failing proxy
// to itself when HOSTNAME was a loopback address.
const app = next({ dev: false, hostname: 'localhost', port });
const handle = app.getRequestHandler();
await app.prepare();

// The security headers of the answers this server gives itself (request-guard.mjs): the build's own, as next.config.ts's
// `headers()` left them in the routes manifest (rules on every path, each with its `header` conditions, e.g. HSTS only
// with `X-Forwarded-Proto: https`). Next sets the same values again on everything it answers.
const headerRules = JSON.parse(readFileSync('.next/routes-manifest.json', 'utf8')).headers.filter(
  (rule) => rule.source === '/:path*' && (rule.has ?? []).every((condition) => condition.type === 'header'),
);

createServer((req, res) => {
  req.headers['x-peer-ip'] = req.socket.remoteAddress ?? '';
  for (const rule of headerRules) {
    if ((rule.has ?? []).every(({ key, value }) => req.headers[key] === value))
      for (const { key, value } of rule.headers) res.setHeader(key, value);
  }
  // Methods and paths Next cannot take answer 405/400 here, not a plain-text 500 from Next (request-guard.mjs).
  if (guardRequest(req, res)) return;
  // The buyer's live streams are answered on this request and response when they can open (server/api/live-node.ts,
  // offered by server/start.ts at start-up; docs/decisions/0014-live-streams-on-the-node-server.md); the rest is Next's.
  // Offered: every GET of the API, and every GET whose path the router would rewrite (percent-encoded or with a dot
  // segment: `%6cive`, `x/../`); the handler matches it as the router would (`canonicalPath`), so no spelling of the
  // stream's URL reaches Next's route around the handler's caps, and pages skip the check. (The key is
  // server/api/live-node.ts's LIVE_STREAM_SERVER.)
  const serveLiveStream = globalThis[Symbol.for('app.liveStreamServer')];
  const url = req.url ?? '';
  if (
    serveLiveStream &&
    req.method === 'GET' &&
    (url.startsWith('/api_f/') || url.includes('%') || url.includes('/.'))
  ) {
    void serveLiveStream(req, res)
      .catch(() => false)
      .then((served) => served || handle(req, res));
    return;
  }
  void handle(req, res);
})
  .on('connect', refuseConnect)
  .listen(port, hostname, () => {
    console.log(`ready on http://localhost:${port}`);
  });
