'use client';
import { useLocale, useTranslations } from 'next-intl';
import { regionName } from '@/lib/intl-format';
import type { AppLocale } from '@/lib/routing/rules';
import { SubmitButton } from '../ui/form-alert';
import { FIELD_KINDS, TextField } from '../ui/text-field';
import { useSafetyEntry } from './use-safety-entry';

/**
 * How the owner gets into the safety centre (server/api/routes/safety.ts):
 * - with `code`, the consent code of a consent page's "All requests for this number" link: sent once at mount
 *   (`POST /safety/session/consent`); then the page is loaded again without the code, replacing the history entry, so
 *   the code leaves the address bar and the history;
 * - with `number` (E.164; the page opened from a consent link, which shows one requester's requests only): one button
 *   sends a code by SMS to that number, then the code opens the whole centre;
 * - otherwise, or when that link no longer works: the number, a one-time code by SMS (`POST /safety/code`, the same
 *   answer whether or not the number is known) and the code (`POST /safety/session`). A national number is read as
 *   the home page's locate box reads it: in the visitor's IP country (`GET /other/ipInfo`, asked at the first touch of
 *   the field), then the locale's (lib/phone-country.ts); the hint gives an example number of that country
 *   (libphonenumber's), or asks for + and the country code when none is known.
 * Sends the page's locale, so the SMS is in the page's language. Needs the `Safety` messages; `product` names the
 * service. The state and calls are ./use-safety-entry.ts's.
 */
export function SafetyEntry({
  code,
  product,
  number = null,
}: {
  code: string | null;
  product: string;
  number?: string | null;
}) {
  const t = useTranslations('Safety');
  const entry = useSafetyEntry(code, number);

  if (entry.linkState === 'entering')
    return (
      <p role="status" className="mt-4" aria-busy="true">
        {t('entering')}
      </p>
    );
  if (number)
    return (
      <div data-testid="link-code">
        <EntryForm entry={entry} number={number} />
      </div>
    );
  return (
    <section className="mt-4 rounded-2xl bg-white p-6 shadow ring-1 ring-slate-200" data-testid="safety-entry">
      {entry.linkState === 'invalid' && (
        <p role="alert" className="mb-4 text-amber-900">
          {t('linkInvalid')}
        </p>
      )}
      <h2 className="text-lg font-semibold">{t('entryTitle')}</h2>
      <p className="mt-2 text-slate-700">{t('entryIntro', { product })}</p>
      <EntryForm entry={entry} number={number} />
    </section>
  );
}

/**
 * The way in's form: the number (not when `number`, E.164, is already known) with the hint of the country it is read
 * in (an example number of that country, or + and the country code), then, once the SMS was sent, the 6-digit code;
 * the last error; Send code, then Open. `entry` is useSafetyEntry's state and calls.
 */
function EntryForm({ entry, number }: { entry: ReturnType<typeof useSafetyEntry>; number: string | null }) {
  const t = useTranslations('Safety');
  const locale = useLocale() as AppLocale;
  const { phone, setPhone, otp, setOtp, sent, busy, error, country, example, askIpCountry, step } = entry;
  const hint =
    country && example ? t('phoneHint', { country: regionName(country, locale), example }) : t('phoneHintIntl');
  const sendLabel = number ? t('sendCodeHere') : t('sendCode');
  return (
    <form onSubmit={step} className="mt-4 space-y-4" noValidate>
      {!number && (
        <TextField
          id="safety-phone"
          label={t('phone')}
          hint={hint}
          type="tel"
          autoComplete="tel"
          inputMode="tel"
          required
          value={phone}
          readOnly={sent}
          onFocus={() => void askIpCountry()}
          onChange={(e) => setPhone(e.target.value)}
        />
      )}
      {sent && (
        <div>
          <p role="status" className="mb-3 text-slate-800">
            {number ? t('codeSentHere') : t('codeSent')}
          </p>
          <TextField
            id="safety-code"
            label={t('code')}
            {...FIELD_KINDS.code}
            pattern="[0-9]{6}"
            required
            value={otp}
            onChange={(e) => setOtp(e.target.value.replace(/\D/g, ''))}
          />
        </div>
      )}
      {error && (
        <p role="alert" className="text-red-700">
          {error}
        </p>
      )}
      <SubmitButton busy={busy} label={sent ? t('open') : sendLabel} busyLabel={sent ? t('open') : sendLabel} />
    </form>
  );
}
