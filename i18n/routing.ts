import { defineRouting } from 'next-intl/routing';

/**
 * The one list of locales and their URL prefixes (docs/rules.md#routes; docs/decisions/0011-next-intl-owns-locales-and-urls.md):
 * `en` (default, no prefix: `/`), `id` (`/id/`), `es` (`/es/`), and the Philippines as `en-PH` under `/ph/` (English
 * text; `ph` is not a language code). Locale detection is off: the first path segment alone selects the language.
 * Everything that needs a locale, a prefix or a catalogue language derives it from here: proxy.ts (lib/routing/rules.ts),
 * links (i18n/navigation.ts, i18n/paths.ts), the catalogues (i18n/messages.ts, server/i18n.ts), sitemap and hreflang.
 * Adding a locale is one line here (and its prefix if it is not the locale itself) plus messages/<language>.json.
 */
const locales = ['en', 'id', 'es', 'en-PH'] as const;

/** Prefixes that are not `/<locale>`: the Philippines' pages live under `/ph/`. */
const prefixes: Partial<Record<(typeof locales)[number], `/${string}`>> = { 'en-PH': '/ph' };

export const routing = defineRouting({
  locales,
  defaultLocale: 'en',
  localePrefix: { mode: 'as-needed', prefixes },
  localeDetection: false,
  localeCookie: false,
});

export type Locale = (typeof routing.locales)[number];

/** A catalogue language: a locale's primary language subtag (`en-PH` → `en`); messages/<language>.json holds its texts. */
export type Language = LanguageOf<Locale>;
type LanguageOf<L extends string> = L extends `${infer P}-${string}` ? P : L;

/** The catalogue languages, in the order of `routing.locales`, without repeats: en, id, es. */
export const languages = [...new Set(routing.locales.map((locale) => locale.split('-')[0]))] as Language[];

/** The default locale's language (English): what a locale or header without a catalogue of its own reads. */
export const defaultLanguage = routing.defaultLocale.split('-')[0] as Language;

/** Whether `value` is one of the locales (a type guard, e.g. for a stored order's `locale` column). */
export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (routing.locales as readonly string[]).includes(value);
}

/** The catalogue language of a locale or language tag, case-insensitive (`en-PH` → `en`, `ES` → `es`); unknown → `en`. */
export function languageOf(tag: string | null | undefined): Language {
  const primary = (tag ?? '').trim().toLowerCase().split('-')[0];
  return (languages as string[]).includes(primary) ? (primary as Language) : defaultLanguage;
}

/**
 * The URL prefix of `locale` under next-intl's `as-needed` mode: '' for the default locale, the configured prefix
 * (`/ph`) or `/<locale>` for the others. Unknown values are the default locale's ('').
 */
export function localePrefixOf(locale: string): string {
  if (!isLocale(locale) || locale === routing.defaultLocale) return '';
  return prefixes[locale] ?? `/${locale}`;
}

/** The locale whose URL prefix is `/<segment>` (`ph` → `en-PH`), or undefined when `segment` is no locale's prefix. */
export function localeOfPrefix(segment: string): Locale | undefined {
  return routing.locales.find((locale) => locale !== routing.defaultLocale && localePrefixOf(locale) === `/${segment}`);
}

/**
 * The public path of `href` in `locale`: `href` is a path of this site without locale prefix, with its trailing
 * slash (docs/rules.md#routes), optionally followed by a query and a hash (`/withdraw/?token=…`). E.g.
 * (`es`, `/faq/`) → `/es/faq/`, (`en-PH`, `/`) → `/ph/`, (`en`, `/`) → `/`.
 *
 * This is next-intl's `getPathname` (i18n/navigation.ts) for code that cannot load `next-intl/navigation`: the API's
 * services also run in the queue worker (`tsx --conditions=react-server`), where that module's `next/navigation`
 * import fails outside Next's bundler. tests/i18n-routing.test.ts checks both agree on every page and locale.
 */
export function localePath(locale: string, href: string): string {
  return `${localePrefixOf(locale)}${href}`;
}

/** The absolute URL of `href` in `locale` on `origin` (e.g. APP_ORIGIN), for e-mails, SMS and payment returns. */
export function localeUrl(origin: string, locale: string, href: string): string {
  return `${origin.replace(/\/$/, '')}${localePath(locale, href)}`;
}
