import type { createTranslator, NamespaceKeys, NestedKeyOf } from 'next-intl';
import en from '../messages/en.json';
import es from '../messages/es.json';
import id from '../messages/id.json';
import { languageOf, type Language } from './routing';

/** Message catalogues by language; `en-PH` uses English (docs/rules.md#routes). Missing keys fall back to English. */
export const catalogues = { en, id, es } as const satisfies Record<Language, object>;

export type Messages = typeof en;

/** A message namespace of the catalogue (`Home`, `Landing.locate`, …). */
export type Namespace = NamespaceKeys<Messages, NestedKeyOf<Messages>>;

/**
 * The translator of namespace `NS` (next-intl's `createTranslator`), for the server components that render the
 * static sections (the home page's sections, the landing intro, the footer) with a locale's catalogue.
 */
export type Translator<NS extends Namespace> = ReturnType<typeof createTranslator<Messages, NS>>;

/** The catalogue language for a locale: `en-PH` → `en`, unknown → `en` (`languageOf`, i18n/routing.ts). */
export function messageLanguage(locale: string): keyof typeof catalogues {
  return languageOf(locale);
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

const merged = new Map<string, Messages>();

/**
 * The catalogue for `locale`: English, or the locale's language with English filling what it lacks; merged once per
 * language and kept (the catalogues do not change at run time).
 */
export function messagesFor(locale: string): Messages {
  const lang = messageLanguage(locale);
  let messages = merged.get(lang);
  if (!messages) {
    messages = lang === 'en' ? catalogues.en : mergeMessages(catalogues.en, catalogues[lang]);
    merged.set(lang, messages);
  }
  return messages;
}
