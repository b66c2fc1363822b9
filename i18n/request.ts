import { hasLocale } from 'next-intl';
import { getRequestConfig } from 'next-intl/server';
import { catalogues, mergeMessages, messageLanguage } from './messages';
import { routing } from './routing';

/** next-intl request config: the locale comes from the `[locale]` segment; English fills untranslated keys. */
export default getRequestConfig(async ({ requestLocale }) => {
  const requested = await requestLocale;
  const locale = hasLocale(routing.locales, requested) ? requested : routing.defaultLocale;
  const lang = messageLanguage(locale);
  const messages = lang === 'en' ? catalogues.en : mergeMessages(catalogues.en, catalogues[lang]);
  return { locale, messages };
});
