import { site } from './site';

/**
 * The security headers of every response (ARCHITECTURE security): framing refused, referrer trimmed, no MIME
 * sniffing, camera and microphone off, geolocation for this site only, and a Content-Security-Policy allowing this
 * origin, the map tiles and whatever tracking or help chat the build is configured with. Returned as
 * `[name, value]` pairs.
 *
 * With `https` (the public origin, APP_ORIGIN, is https) they add HTTP Strict Transport Security for one year,
 * subdomains included (RFC 6797; OWASP's HTTP headers cheat sheet), so a browser that once reached the site never
 * again asks for it over plain HTTP. Not on an http origin: a browser ignores it there, and it would pin localhost.
 *
 * Read from `process.env.NEXT_PUBLIC_*` as literal expressions, so in the server bundle (instrumentation.ts, which
 * hands them to scripts/start.mjs) they are the values the build inlined — the same the pages were built with — and
 * in next.config.ts (`next dev`) the current environment's.
 */
export function securityHeaders(options: { https?: boolean } = {}): [string, string][] {
  const tiles = tileOrigin(site.tileUrl);
  const third = thirdPartyOrigins();
  const csp = [
    "default-src 'self'",
    "script-src 'self' 'unsafe-inline'" +
      (process.env.NODE_ENV === 'production' ? '' : " 'unsafe-eval'") +
      third.script,
    `style-src 'self' 'unsafe-inline'${third.style}`,
    `img-src 'self' data: ${tiles}${third.img}`,
    `connect-src 'self'${third.connect}`,
    `font-src 'self'${third.font}`,
    `frame-src 'self'${third.frame}`,
    "frame-ancestors 'none'",
    "base-uri 'self'",
    "form-action 'self'",
  ].join('; ');
  return [
    ['X-Frame-Options', 'DENY'],
    ['Referrer-Policy', 'strict-origin-when-cross-origin'],
    ['X-Content-Type-Options', 'nosniff'],
    ['Permissions-Policy', 'camera=(), microphone=(), geolocation=(self)'],
    ['Content-Security-Policy', csp],
    ...(options.https
      ? [['Strict-Transport-Security', 'max-age=31536000; includeSubDomains'] as [string, string]]
      : []),
  ];
}

/**
 * Origin of the map tiles for the CSP, from a Leaflet URL template (`site.tileUrl`, OpenStreetMap's by default): a
 * `{s}` subdomain becomes `*.` (`https://{s}.tile.openstreetmap.org/…` → `https://*.tile.openstreetmap.org`).
 */
function tileOrigin(url: string): string {
  const { protocol, host } = new URL(url.replace('{s}', 'a').replace(/\{[a-z]\}/g, '0'));
  return `${protocol}//${host.replace(/^a\./, '*.')}`;
}

/**
 * Third-party origins the CSP must allow for the tracking settings: the button-click tracker's host, Google
 * Analytics (NEXT_PUBLIC_EVENT_SERVICE=gtag) and Crisp (NEXT_PUBLIC_HELP_CHAT=crisp). None by default. Each value is
 * '' or a space-led list, to append to its directive.
 */
function thirdPartyOrigins() {
  const out = {
    script: [] as string[],
    connect: [] as string[],
    img: [] as string[],
    style: [] as string[],
    frame: [] as string[],
    font: [] as string[],
  };
  const tracker = process.env.NEXT_PUBLIC_TRACKER_ORIGIN;
  if (tracker) out.connect.push(new URL(tracker).origin);
  if (process.env.NEXT_PUBLIC_EVENT_SERVICE === 'gtag') {
    out.script.push('https://www.googletagmanager.com');
    out.connect.push(
      'https://*.google-analytics.com',
      'https://*.analytics.google.com',
      'https://www.googletagmanager.com',
    );
    out.img.push('https://*.google-analytics.com', 'https://www.googletagmanager.com');
  }
  if (process.env.NEXT_PUBLIC_HELP_CHAT === 'crisp') {
    // Crisp's documented CSP entries ("How to use Crisp with a Content Security Policy").
    out.script.push('https://client.crisp.chat', 'https://settings.crisp.chat');
    out.connect.push(
      'https://client.crisp.chat',
      'https://storage.crisp.chat',
      'wss://client.relay.crisp.chat',
      'wss://stream.relay.crisp.chat',
    );
    out.img.push('https://client.crisp.chat', 'https://image.crisp.chat', 'https://storage.crisp.chat');
    out.style.push('https://client.crisp.chat');
    out.font.push('https://client.crisp.chat');
    out.frame.push('https://game.crisp.chat');
  }
  const join = (list: string[]) => (list.length ? ` ${list.join(' ')}` : '');
  return Object.fromEntries(Object.entries(out).map(([directive, list]) => [directive, join(list)])) as Record<
    keyof typeof out,
    string
  >;
}

/** Where instrumentation.ts leaves the headers for scripts/start.mjs (same process, another module system). */
export const SECURITY_HEADERS_KEY = Symbol.for('app.securityHeaders');

/**
 * Set by scripts/start.mjs before Next prepares: the server that will put the security headers on every response.
 * instrumentation.ts refuses to start a production server without it (`next start` alone would serve none).
 */
export const START_SCRIPT_KEY = Symbol.for('app.startScript');
