/**
 * Defaults of the public settings; lib/settings/browser.ts and server/env.ts validate the same settings with these
 * defaults (docs/decisions/0013-browser-settings-checked-at-build.md).
 */
export const SITE_DEFAULTS = {
  product: 'Chamspy',
  company: 'Demo Company Limited',
  support: 'support@example.com',
  descriptor: 'CHAMSPY DEMO',
  tileUrl: 'https://{s}.tile.openstreetmap.org/{z}/{x}/{y}.png',
  tileAttribution: '&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a> contributors',
  iosBridge: 'N8WebView',
  androidBridge: 'AndroidBridge',
  adEventsHash: 'e7c4a91d',
} as const;

/**
 * Demo mode: payments are the sandbox's or SMS stay in the outbox, so nothing real is charged or sent.
 * Decided from the provider settings; pages are static, so the build records it (`NEXT_PUBLIC_DEMO_MODE`, next.config)
 * and start-up refuses settings whose mode differs from the build's.
 */
export function isDemoMode(settings: { PAYMENT_PROVIDER?: string; SMS_PROVIDER?: string }): boolean {
  return (settings.PAYMENT_PROVIDER || 'sandbox') === 'sandbox' || (settings.SMS_PROVIDER || 'outbox') === 'outbox';
}

/** Public site settings (docs/rules.md#runtime: the product's name is a setting, with a demo default). */
export const site = {
  product: process.env.NEXT_PUBLIC_PRODUCT_NAME || SITE_DEFAULTS.product,
  company: process.env.NEXT_PUBLIC_COMPANY_NAME || SITE_DEFAULTS.company,
  /** Whether this build runs in demo mode (a ribbon says so on every page). */
  demo: process.env.NEXT_PUBLIC_DEMO_MODE === '1',
  /** Map tiles (a Leaflet URL template) and their attribution; OpenStreetMap by default. */
  tileUrl: process.env.NEXT_PUBLIC_TILE_URL || SITE_DEFAULTS.tileUrl,
  tileAttribution: process.env.NEXT_PUBLIC_TILE_ATTRIBUTION || SITE_DEFAULTS.tileAttribution,
};
