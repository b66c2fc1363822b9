import 'server-only';

/** Locales the consent SMS is written in, and their URL prefixes (SPEC §2). */
const PREFIX: Record<string, string> = { en: '', id: '/id', es: '/es', 'en-PH': '/ph' };

/** Spanish-speaking regions (ISO 3166-1) whose numbers get the Spanish SMS. */
const SPANISH = new Set('ES MX AR CO PE VE CL EC GT CU BO DO HN PY SV NI CR PA UY PR GQ'.split(' '));

/** The target's language guess from the number's country (ISSUE 5: the buyer may override it later). */
export function localeForCountry(country: string | null | undefined): string {
  if (country === 'ID') return 'id';
  if (country === 'PH') return 'en-PH';
  if (country && SPANISH.has(country)) return 'es';
  return 'en';
}

/**
 * The consent link: `<origin><prefix>/location/?c=<code>` (the trailing slash of our routes saves the owner a
 * redirect).
 */
export function consentLink(origin: string, locale: string, code: string): string {
  return `${origin.replace(/\/$/, '')}${PREFIX[locale] ?? ''}/location/?c=${encodeURIComponent(code)}`;
}

/**
 * The consent SMS in `locale`: names the service, says the link shows who asks and lets the owner share or decline.
 * Written in GSM-7 characters only, so with a link of up to ~75 characters it fits one 160-character segment.
 */
export function consentSmsText(locale: string, product: string, link: string): string {
  switch (locale) {
    case 'es':
      return `${product}: alguien pide la ubicacion de este telefono. Mira quien y acepta o rechaza: ${link}`;
    case 'id':
      return `${product}: ada yang meminta lokasi ponsel ini. Lihat siapa, lalu bagikan atau tolak: ${link}`;
    default:
      return `${product}: someone asks for this phone's location. See who, then share or decline: ${link}`;
  }
}
