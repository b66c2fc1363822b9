import en from '../messages/en.json';
import es from '../messages/es.json';
import id from '../messages/id.json';

/** Message catalogues by language; `en-PH` uses English (SPEC §2). Missing keys fall back to English. */
export const catalogues = { en, id, es } as const;

export type Messages = typeof en;

/** The catalogue language for a locale: `en-PH` → `en`, unknown → `en`. */
export function messageLanguage(locale: string): keyof typeof catalogues {
  const lang = locale.toLowerCase().split('-')[0];
  return lang === 'id' || lang === 'es' ? lang : 'en';
}

/** Deep-merges `partial` over `base`, so a partly translated catalogue shows English for what it lacks. */
export function mergeMessages<T extends Record<string, unknown>>(base: T, partial: Record<string, unknown>): T {
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(partial)) {
    const b = out[key];
    // Precompiled messages with arguments are arrays: leaves, not namespaces.
    const isNamespace = (v: unknown) => !!v && typeof v === 'object' && !Array.isArray(v);
    out[key] =
      isNamespace(b) && isNamespace(value)
        ? mergeMessages(b as Record<string, unknown>, value as Record<string, unknown>)
        : value;
  }
  return out as T;
}
