import { describe, expect, it } from 'vitest';
import { isInternational, phoneCountries, phoneCountryFor } from '../lib/phone-country';
import type { AppLocale } from '../lib/routing/rules';

describe('phoneCountries: the IP country first, then the locale', () => {
  it.each<[AppLocale, string | null, string[]]>([
    ['en', null, []],
    ['es', null, ['ES']],
    ['id', null, ['ID']],
    ['en-PH', null, ['PH']],
    ['en', 'GB', ['GB']],
    ['es', 'MX', ['MX', 'ES']],
    ['es', 'es', ['ES']],
    ['id', 'SG', ['SG', 'ID']],
    ['en-PH', 'PH', ['PH']],
    ['es', 'XYZ', ['ES']],
  ])('%s with IP country %s → %j', (locale, ip, expected) => {
    expect(phoneCountries(locale, ip)).toEqual(expected);
  });
});

describe('isInternational', () => {
  it.each([
    ['+34 612 34 56 78', true],
    [' (+34) 612', true],
    ['＋34612345678', true],
    ['612345678', false],
    ['0034612345678', false],
  ])('%s → %s', (input, expected) => expect(isInternational(input)).toBe(expected));
});

describe('phoneCountryFor: locale × IP country × input, the numbering plan decides', () => {
  it.each<[string, AppLocale, string | null, string | null]>([
    // A Spanish mobile typed nationally on /es/: Spain, whether the IP is unknown, Spanish or Mexican.
    ['612345678', 'es', null, 'ES'],
    ['612345678', 'es', 'ES', 'ES'],
    ['612345678', 'es', 'MX', 'ES'],
    // A Mexican mobile typed on /es/ from Mexico: the IP's country, which the plan accepts, wins.
    ['5512345678', 'es', 'MX', 'MX'],
    // English pages imply no country: only the IP can give one.
    ['612345678', 'en', null, null],
    ['07400 123456', 'en', 'GB', 'GB'],
    ['612345678', 'en', 'ES', 'ES'],
    // Indonesian and Philippine national numbers.
    ['0812-3456-7890', 'id', null, 'ID'],
    ['0812-3456-7890', 'id', 'SG', 'ID'],
    ['0917 123 4567', 'en-PH', null, 'PH'],
    ['0917 123 4567', 'en-PH', 'US', 'PH'],
    // A number with + carries its own code: the first candidate is passed and ignored by the parser.
    ['+44 7400 123456', 'es', 'MX', 'MX'],
    ['+44 7400 123456', 'en', null, null],
    // Valid nowhere: the first candidate, so the error names the IP country's rule.
    ['12', 'es', 'MX', 'MX'],
  ])('%s on %s with IP country %s → %s', async (input, locale, ip, expected) => {
    expect(await phoneCountryFor(input, locale, ip)).toBe(expected);
  });
});
