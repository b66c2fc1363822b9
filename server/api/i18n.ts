import 'server-only';
import en from '../../messages/en.json';
import es from '../../messages/es.json';
import id from '../../messages/id.json';

/** Languages the API answers in (ARCHITECTURE §5); anything else falls back to English. */
export type ApiLanguage = 'en' | 'id' | 'es';

const catalogues: Record<ApiLanguage, Record<string, unknown>> = { en, id, es };

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
      const q = Number(params.find((p) => p.trim().startsWith('q='))?.trim().slice(2) ?? '1');
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
  const text = lookup(catalogues[lang], key) ?? lookup(catalogues.en, key) ?? key;
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
