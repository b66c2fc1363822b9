import 'server-only';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createTranslator } from 'use-intl/core';
import { messagesFor } from '../i18n/messages';
import { defaultLanguage, languages, type Language } from '../i18n/routing';
import { acceptedLanguage } from '../scripts/accept-language.mjs';

/**
 * The API's, e-mails' and SMS' texts: next-intl's `createTranslator` (use-intl core, the same ICU MessageFormat
 * formatter the pages use: https://next-intl.dev/docs/usage/messages) over the same catalogues, messages/*.json.
 * Languages come from the one locale list, i18n/routing.ts (docs/decisions/0011-next-intl-owns-locales-and-urls.md).
 */

/** Languages the API answers in (docs/rules.md#api): the catalogue languages of i18n/routing.ts; others read English. */
export type ApiLanguage = Language;

// The source texts, read from disk: the build precompiles imported catalogues (next.config.ts), and the terms of use
// are hashed as written (`messagesOf`, server/services/billing/subscription-consents.ts).
let catalogues: Record<ApiLanguage, Record<string, unknown>> | undefined;
function catalogue(lang: ApiLanguage): Record<string, unknown> {
  catalogues ??= Object.fromEntries(
    languages.map((l) => [
      l,
      JSON.parse(readFileSync(path.join(process.cwd(), 'messages', `${l}.json`), 'utf8')) as Record<string, unknown>,
    ]),
  ) as Record<ApiLanguage, Record<string, unknown>>;
  return catalogues[lang];
}

/** The whole catalogue of `lang` as written (messages/{lang}.json), e.g. to hash a text; to format, use `translate`. */
export function messagesOf(lang: ApiLanguage): Record<string, unknown> {
  return catalogue(lang);
}

/**
 * Picks the response language from an `Accept-Language` header (RFC 9110, section 12.5.4): the first listed language (by
 * q-value, then order) that has a catalogue (i18n/routing.ts: en, id, es), looked up as RFC 4647 does (`en-PH` counts
 * as en; scripts/accept-language.mjs). Also takes a locale (`en-PH`, `es`). Missing or unknown → 'en'.
 */
export function pickLanguage(header: string | undefined | null): ApiLanguage {
  return acceptedLanguage(header, languages, defaultLanguage);
}

type Translate = (key: string, values?: Record<string, string | number>) => string;
const translators = new Map<ApiLanguage, { t: Translate; has: (key: string) => boolean }>();

/**
 * One translator per language, over the imported catalogue (`messagesFor`, i18n/messages.ts); dates (if a message
 * formats one) are written in UTC. Imported, not read from disk: in the Next build the next-intl plugin precompiles
 * imported catalogues and swaps use-intl's formatter for its format-only half, which returns an ICU source string
 * as it is (`{code}` unreplaced); outside Next (Vitest, the worker) both stay the full ICU parser and source texts.
 */
function translatorOf(lang: ApiLanguage) {
  let translator = translators.get(lang);
  if (!translator) {
    const t = createTranslator({ locale: lang, messages: messagesFor(lang), timeZone: 'UTC' });
    translator = { t: t as unknown as Translate, has: (key) => t.has(key as never) };
    translators.set(lang, translator);
  }
  return translator;
}

/**
 * Translates a dotted message key (e.g. `Api.notFound`, `Validation.zip`) from messages/ with ICU MessageFormat:
 * `{name}` arguments from `params`, and plurals/selects (`{count, plural, one {…} other {…}}`) as on the pages.
 * A message is plain text for the caller to escape: ICU reads `'` before `{`/`}` as quoting and `<tag>` as markup,
 * which the catalogues' server texts do not use (tests/server-i18n.test.ts renders every one). A key missing in
 * `lang` falls back to English; a key missing there, or a message that cannot be formatted (e.g. an argument not
 * given), yields the key itself, logged by next-intl's default `onError`.
 */
export function translate(lang: ApiLanguage, key: string, params: Record<string, string | number> = {}): string {
  const own = translatorOf(lang);
  if (own.has(key) || lang === defaultLanguage) return own.t(key, params);
  return translatorOf(defaultLanguage).t(key, params);
}
