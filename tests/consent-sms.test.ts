import { describe, expect, it } from 'vitest';
import { SMS_TEXTS, consentLink, consentSmsText, localeForCountry, smsSegments } from '@/server/services/locate';
import { REQUESTER_NAME } from '@/lib/validation/requester-name';

// The SMS names who asks, is written in correct orthography, and is sent in GSM-7 where the
// language allows it (en, id) and UCS-2 where it does not (es accents: á, í, ó, ú are not in GSM 03.38).
describe('consent SMS', () => {
  const code = 'A'.repeat(22);
  // A production-like origin; the longest prefix (/es/, /ph/) and a requester name of the maximum length.
  const origin = 'https://locate.example.com';
  const longName = 'Anna Maria Lopez (your older sister)!!'.padEnd(REQUESTER_NAME.max, '.');
  const expected: Record<string, { encoding: 'GSM-7' | 'UCS-2'; max: number }> = {
    en: { encoding: 'GSM-7', max: 2 },
    'en-PH': { encoding: 'GSM-7', max: 2 },
    id: { encoding: 'GSM-7', max: 2 },
    es: { encoding: 'UCS-2', max: 4 },
  };
  const cases = Object.keys(expected).flatMap((locale) => SMS_TEXTS.map((text) => [locale, text] as const));

  it.each(cases)(
    'in %s (%s) names the requester and the service, carries the link, and its segments are counted',
    (locale, id) => {
      const link = consentLink(origin, locale, code);
      const text = consentSmsText(locale, 'Chamspy', link, id, longName);
      // The name as written, in the language's quotes: plain double quotes keep English and Indonesian in GSM-7.
      expect(text).toContain(locale === 'es' ? `«${longName}»` : `"${longName}"`);
      expect(text).toContain('Chamspy');
      expect(text.endsWith(link)).toBe(true);
      const { encoding, segments } = smsSegments(text);
      expect(encoding).toBe(expected[locale].encoding);
      expect(segments).toBeLessThanOrEqual(expected[locale].max);
      // A short name keeps the English and Indonesian texts within one 160-character GSM-7 part.
      const short = smsSegments(consentSmsText(locale, 'Chamspy', link, id, 'Anna'));
      if (encoding === 'GSM-7') expect(short).toEqual({ encoding: 'GSM-7', segments: 1 });
    },
  );

  it('writes Spanish with its accents (UCS-2) and keeps the older unnamed wording for old requests', () => {
    const link = consentLink(origin, 'es', code);
    expect(consentSmsText('es', 'Chamspy', link, 'standard', 'Ana')).toMatch(
      /^«Ana» pide la ubicación de este teléfono a través de Chamspy/,
    );
    expect(consentSmsText('es', 'Chamspy', link, 'standard', null)).toMatch(/pide la ubicación de este teléfono/);
    expect(consentSmsText('en', 'Chamspy', link, 'standard', null)).toMatch(/^Chamspy: someone asks/);
  });

  it('counts a name outside GSM-7 as UCS-2 even in English, and a long one in more parts', () => {
    const link = consentLink(origin, 'en', code);
    expect(smsSegments(consentSmsText('en', 'Chamspy', link, 'standard', 'Ана'))).toMatchObject({
      encoding: 'UCS-2',
    });
    expect(smsSegments('a'.repeat(160))).toEqual({ encoding: 'GSM-7', segments: 1 });
    expect(smsSegments('a'.repeat(161))).toEqual({ encoding: 'GSM-7', segments: 2 });
    expect(smsSegments('ó'.repeat(70))).toEqual({ encoding: 'UCS-2', segments: 1 });
    expect(smsSegments('ó'.repeat(71))).toEqual({ encoding: 'UCS-2', segments: 2 });
  });

  it('guesses the language from the number country and prefixes the link', () => {
    expect(localeForCountry('ES')).toBe('es');
    expect(localeForCountry('AR')).toBe('es');
    expect(localeForCountry('US')).toBe('en');
    expect(localeForCountry(null)).toBe('en');
    expect(localeForCountry('MX')).toBe('es');
    expect(localeForCountry('ID')).toBe('id');
    expect(localeForCountry('PH')).toBe('en-PH');
    expect(localeForCountry('GB')).toBe('en');
    expect(consentLink('https://x.test/', 'en-PH', 'abc')).toBe('https://x.test/ph/location/?c=abc');
    expect(consentLink('https://x.test', 'en', 'abc')).toBe('https://x.test/location/?c=abc');
  });
});
