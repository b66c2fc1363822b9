'use client';
import { useLocale, useTranslations } from 'next-intl';
import { useCallback, useRef, useState } from 'react';
import { regionName } from '@/lib/intl-format';

/** The country a locale implies for national numbers: lib/phone-country.ts (es → ES, id → ID, en-PH → PH). */
export { LOCALE_COUNTRY } from '@/lib/phone-country';

type AsYouTypeCtor = typeof import('libphonenumber-js/min').AsYouType;
let loading: Promise<AsYouTypeCtor> | null = null;
/** libphonenumber-js's formatter, loaded on the first keystroke so it is not part of the landing pages' first load. */
function loadAsYouType(): Promise<AsYouTypeCtor> {
  loading ??= import('libphonenumber-js/min').then((m) => m.AsYouType);
  return loading;
}

/**
 * Formats a phone field as it is typed (libphonenumber `AsYouType`): `+4915123456781` shows as
 * `+49 1512 3456781`, and with a default country (`defaultCountry`, ISO 3166-1 alpha-2: the visitor's IP country, else
 * the locale's) a national number such as `08123456787` shows as `0812-3456-787` for ID; digits and `+` are never lost.
 * Returns `registerOptions` for the field, `country`, the ISO code of the number so far (null until it is known), and
 * `hint`, the field's hint in the page's language: that country's name once known, else which country a national
 * number is read in (`LocateBox.phoneHint`), else that the number needs its country code (`LocateBox.phoneHintIntl`).
 */
export function usePhoneInput(defaultCountry: string | null) {
  const [country, setCountry] = useState<string | null>(null);
  const latest = useRef(0);
  const format = useCallback(
    async (value: string): Promise<string> => {
      const call = ++latest.current;
      const AsYouType = await loadAsYouType();
      const typer = new AsYouType((defaultCountry ?? undefined) as ConstructorParameters<AsYouTypeCtor>[0] | undefined);
      const formatted = typer.input(value);
      if (call === latest.current) setCountry(typer.getCountry() ?? null);
      // Keep what was typed when the formatter drops characters (letters, a deleted separator) or does not know the
      // calling code (then it only strips the spaces the visitor typed).
      const digits = (s: string) => s.replace(/[^\d+]/g, '');
      const known = !!(typer.getCallingCode() ?? typer.getCountry());
      return known && digits(formatted) === digits(value) && !value.endsWith(' ') ? formatted : value;
    },
    [defaultCountry],
  );
  /**
   * Options for react-hook-form's `register('phone', …)`: formats what was typed when the text grew (a deletion is left
   * as is, so separators can be deleted), writing through `set` only if the field (`get`) still holds what was typed.
   * `get` and `set` are given the input element.
   */
  const registerOptions = useCallback(
    (get: (input: HTMLInputElement) => string, set: (value: string, input: HTMLInputElement) => void) => ({
      onChange: async (e: { target: HTMLInputElement }) => {
        const input = e.target;
        const typed = input.value;
        const grew = typed.length > (input.dataset.previous ?? '').length;
        input.dataset.previous = typed;
        if (!grew) return;
        const formatted = await format(typed);
        if (formatted === typed || get(input) !== typed) return;
        input.dataset.previous = formatted;
        set(formatted, input);
      },
    }),
    [format],
  );
  const t = useTranslations('LocateBox');
  const locale = useLocale();
  const hint = country
    ? regionName(country, locale)
    : defaultCountry
      ? t('phoneHint', { country: regionName(defaultCountry, locale) })
      : t('phoneHintIntl');
  return { registerOptions, country, hint };
}
