import { describe, expect, it } from 'vitest';
import { SMS_TEXTS, consentLink, consentSmsText, localeForCountry } from '@/server/services/consent-sms';

/** GSM 03.38 basic character set (and the space); an SMS using only these fits 160 characters a segment. */
const GSM7 = new Set(
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà',
);

describe('consent SMS', () => {
  const code = 'A'.repeat(22);
  const cases = ['en', 'es', 'id', 'en-PH'].flatMap((locale) => SMS_TEXTS.map((text) => [locale, text] as const));
  it.each(cases)('fits one GSM-7 segment in %s (%s), names the service and carries the link', (locale, id) => {
    const link = consentLink('https://locate.example.com', locale, code);
    const text = consentSmsText(locale, 'Chamspy', link, id);
    expect([...text].every((ch) => GSM7.has(ch))).toBe(true);
    expect(text.length).toBeLessThanOrEqual(160);
    expect(text).toContain('Chamspy');
    expect(text).toContain(link);
  });

  it('guesses the language from the number country and prefixes the link', () => {
    expect(localeForCountry('ES')).toBe('es');
    expect(localeForCountry('MX')).toBe('es');
    expect(localeForCountry('ID')).toBe('id');
    expect(localeForCountry('PH')).toBe('en-PH');
    expect(localeForCountry('GB')).toBe('en');
    expect(consentLink('https://x.test/', 'en-PH', 'abc')).toBe('https://x.test/ph/location/?c=abc');
    expect(consentLink('https://x.test', 'en', 'abc')).toBe('https://x.test/location/?c=abc');
  });
});
