import { hasLocale } from 'next-intl';
import { getRequestConfig } from 'next-intl/server';
import { messagesFor } from './messages';
import { routing } from './routing';

/** next-intl request config: the locale comes from the `[locale]` segment; English fills untranslated keys. */
export default getRequestConfig(async ({ requestLocale }) => {
  const requested = await requestLocale;
  const locale = hasLocale(routing.locales, requested) ? requested : routing.defaultLocale;
  return { locale, messages: messagesFor(locale) };
});
