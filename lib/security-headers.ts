import { site } from './site';

/**
 * The security headers of every response (ARCHITECTURE security): framing refused, referrer trimmed, no MIME
 * sniffing, camera and microphone off, geolocation for this site only, and a Content-Security-Policy allowing this
 * origin, the map tiles and whatever tracking or help chat the build is configured with. Returned as
 * `[name, value]` pairs.
 *
 * With `stripe` the policy also allows Stripe.js and Stripe's embedded checkout (the checkout pages only, next.config.ts).
 * With `https` they add HTTP Strict Transport Security (STRICT_TRANSPORT_SECURITY). next.config.ts sets these headers
 * on every response with Next's `headers()` (docs/decisions/0004-where-security-headers-are-set.md), HSTS on those
 * to requests that came over https.
 *
 * Read from `process.env.NEXT_PUBLIC_*` and `NODE_ENV` when next.config.ts is loaded: by `next build`, the values the
 * build inlines into the pages (Next keeps the headers in the build's routes manifest), by `next dev`, the current
 * environment's.
 */
export function securityHeaders(options: { https?: boolean; stripe?: boolean } = {}): [string, string][] {
  const tiles = tileOrigin(site.tileUrl);
  const third = thirdPartyOrigins(options.stripe);
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
    ...(options.https ? [STRICT_TRANSPORT_SECURITY] : []),
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
 * Analytics (NEXT_PUBLIC_EVENT_SERVICE=gtag) and Crisp (NEXT_PUBLIC_HELP_CHAT=crisp); with `stripe`, Stripe.js and
 * its embedded checkout. None by default. Each value is '' or a space-led list, to append to its directive.
 */
function thirdPartyOrigins(stripe = false) {
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
  if (stripe) {
    // Stripe's documented CSP entries for Stripe.js and Embedded Checkout ("Content Security Policy",
    // https://docs.stripe.com/security/guide#content-security-policy).
    out.script.push('https://js.stripe.com', 'https://*.js.stripe.com', 'https://checkout.stripe.com');
    out.connect.push('https://api.stripe.com', 'https://checkout.stripe.com');
    out.frame.push(
      'https://js.stripe.com',
      'https://*.js.stripe.com',
      'https://hooks.stripe.com',
      'https://checkout.stripe.com',
    );
    out.img.push('https://*.stripe.com');
  }
  const join = (list: string[]) => (list.length ? ` ${list.join(' ')}` : '');
  return Object.fromEntries(Object.entries(out).map(([directive, list]) => [directive, join(list)])) as Record<
    keyof typeof out,
    string
  >;
}

/**
 * HTTP Strict Transport Security for one year, subdomains included (RFC 6797; OWASP's HTTP headers cheat sheet), so a
 * browser that once reached the site over https never again asks for it over plain HTTP. Sent only on responses to
 * requests that came over https (next.config.ts): a browser ignores it over http (RFC 6797, section 8.1).
 */
export const STRICT_TRANSPORT_SECURITY: [string, string] = [
  'Strict-Transport-Security',
  'max-age=31536000; includeSubDomains',
];
