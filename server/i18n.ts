import 'server-only';
import { readFileSync } from 'node:fs';
import path from 'node:path';

/** Languages the API answers in (docs/rules.md#api); anything else falls back to English. */
export type ApiLanguage = 'en' | 'id' | 'es';

// Read from disk, not imported: the build precompiles imported catalogues for next-intl, and the API needs the text.
let catalogues: Record<ApiLanguage, Record<string, unknown>> | undefined;
function catalogue(lang: ApiLanguage): Record<string, unknown> {
  catalogues ??= Object.fromEntries(
    (['en', 'id', 'es'] as const).map((l) => [
      l,
      JSON.parse(readFileSync(path.join(process.cwd(), 'messages', `${l}.json`), 'utf8')) as Record<string, unknown>,
    ]),
  ) as Record<ApiLanguage, Record<string, unknown>>;
  return catalogues[lang];
}

/** The whole catalogue of `lang` (messages/{lang}.json), for next-intl's `createTranslator` on the server. */
export function messagesOf(lang: ApiLanguage): Record<string, unknown> {
  return catalogue(lang);
}

/**
 * Picks the response language from an `Accept-Language` header: the first listed language (by q-value) that is
 * en, id or es; `en-PH` counts as en. Missing or unknown → 'en'.
 */
export function pickLanguage(header: string | undefined | null): ApiLanguage {
  if (!header) return 'en';
  const ranked = header
    .split(',')
    .map((part, index) => {
      const [tag, ...params] = part.trim().split(';');
      const q = Number(
        params
          .find((p) => p.trim().startsWith('q='))
          ?.trim()
          .slice(2) ?? '1',
      );
      return { lang: tag.trim().toLowerCase().split('-')[0], q: Number.isFinite(q) ? q : 0, index };
    })
    .filter((x) => x.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  for (const { lang } of ranked) if (lang === 'en' || lang === 'id' || lang === 'es') return lang;
  return 'en';
}

/**
 * Translates a dotted message key (e.g. `Api.notFound`, `Validation.zip`) from messages/, replacing `{name}`
 * placeholders with `params`. Falls back to English, then to the key itself.
 */
export function translate(lang: ApiLanguage, key: string, params: Record<string, string | number> = {}): string {
  const text = lookup(catalogue(lang), key) ?? lookup(catalogue('en'), key) ?? key;
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}

function lookup(catalogue: Record<string, unknown>, key: string): string | undefined {
  let node: unknown = catalogue;
  for (const part of key.split('.')) {
    if (!node || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return typeof node === 'string' ? node : undefined;
}
