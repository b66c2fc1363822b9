import { defineRouting } from 'next-intl/routing';

/**
 * Locales (docs/rules.md#routes): `en` (default, no prefix), `id`, `es`, and the Philippines as `en-PH` under `/ph` (English
 * text; `ph` is not a language code). Locale detection is off: the first path segment alone selects the language.
 * proxy.ts applies these rules (lib/routing); next-intl uses this object for links and message loading.
 */
export const routing = defineRouting({
  locales: ['en', 'id', 'es', 'en-PH'],
  defaultLocale: 'en',
  localePrefix: { mode: 'as-needed', prefixes: { 'en-PH': '/ph' } },
  localeDetection: false,
  localeCookie: false,
});

export type Locale = (typeof routing.locales)[number];
