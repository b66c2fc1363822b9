import { match } from '@formatjs/intl-localematcher';
import Negotiator from 'negotiator';

/**
 * The first of `available` that an `Accept-Language` header asks for (RFC 9110, section 12.5.4): the header's languages by
 * q-value, then order (`negotiator`), each looked up in `available` by RFC 4647 section 3.4 lookup, which drops subtags from
 * the end (`en-PH` → `en`, `zh-Hant-TW` → `zh-Hant` → `zh`; `@formatjs/intl-localematcher`, as next-intl's middleware
 * does). Tags that are not well-formed BCP 47 (`*`, `x_y`) are skipped. A missing header, or one naming none of
 * `available`, gives `fallback`. Plain JavaScript so that scripts/request-guard.mjs, which answers before Next.js
 * runs, and server/i18n.ts share it.
 */
export function acceptedLanguage(header, available, fallback) {
  if (!header) return fallback;
  const asked = new Negotiator({ headers: { 'accept-language': header } }).languages().filter(wellFormed);
  return asked.length ? match(asked, available, fallback, { algorithm: 'lookup' }) : fallback;
}

/** Whether `tag` is a well-formed language tag (`Intl.getCanonicalLocales` accepts it). */
function wellFormed(tag) {
  try {
    Intl.getCanonicalLocales(tag);
    return true;
  } catch {
    return false;
  }
}
