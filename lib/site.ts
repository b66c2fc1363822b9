/** Demo defaults of the public settings; server/env.ts validates the same settings with these defaults. */
export const SITE_DEFAULTS = {
  product: 'Chamspy',
  company: 'Demo Company Limited',
  support: 'support@example.com',
} as const;

/** Public site settings (ARCHITECTURE §3: the product's name is a setting, with a demo default). */
export const site = {
  product: process.env.NEXT_PUBLIC_PRODUCT_NAME || SITE_DEFAULTS.product,
  company: process.env.NEXT_PUBLIC_COMPANY_NAME || SITE_DEFAULTS.company,
  /** Map tiles (a Leaflet URL template) and their attribution; OpenStreetMap by default. */
  tileUrl: process.env.NEXT_PUBLIC_TILE_URL || 'https://{s}.tile.openstreetmap.org/{z}/{x}/{y}.png',
  tileAttribution:
    process.env.NEXT_PUBLIC_TILE_ATTRIBUTION ||
    '&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a> contributors',
};
