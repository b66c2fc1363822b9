'use client';
import { useTranslations } from 'next-intl';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { SubmitButton } from '../ui/form-alert';
import { FIELD_KINDS, TextField } from '../ui/text-field';
import { useApi } from '../ui/use-api';

/**
 * How the owner gets into the safety centre when no session is open (server/api/routes/safety.ts):
 * - with `code`, the consent code of a consent page's "All requests for this number" link: sent once at mount
 *   (`POST /safety/session/consent`); then the page is loaded again without the code, replacing the history entry, so
 *   the code leaves the address bar and the history;
 * - otherwise, or when that link no longer works: the number, a one-time code by SMS (`POST /safety/code`, the same
 *   answer whether or not the number is known) and the code (`POST /safety/session`).
 * Needs the `Safety` messages; `product` names the service.
 */
export function SafetyEntry({ code, product }: { code: string | null; product: string }) {
  const t = useTranslations('Safety');
  const api = useApi();
  const [linkState, setLinkState] = useState<'entering' | 'invalid' | null>(code ? 'entering' : null);
  const [phone, setPhone] = useState('');
  const [otp, setOtp] = useState('');
  const [sent, setSent] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const tried = useRef(false);

  const reopen = () => window.location.replace(window.location.pathname);

  useEffect(() => {
    if (!code || tried.current) return;
    tried.current = true;
    api
      .post('/safety/session/consent', { code })
      .then(reopen)
      .catch(() => setLinkState('invalid'));
  }, [api, code]);

  const step = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      if (!sent) {
        await api.post('/safety/code', { phone });
        setSent(true);
      } else {
        await api.post('/safety/session', { phone, code: otp });
        reopen();
      }
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };

  if (linkState === 'entering')
    return (
      <p role="status" className="mt-4" aria-busy="true">
        {t('entering')}
      </p>
    );
  return (
    <section className="mt-4 rounded-2xl bg-white p-6 shadow ring-1 ring-slate-200" data-testid="safety-entry">
      {linkState === 'invalid' && (
        <p role="alert" className="mb-4 text-amber-900">
          {t('linkInvalid')}
        </p>
      )}
      <h2 className="text-lg font-semibold">{t('entryTitle')}</h2>
      <p className="mt-2 text-slate-700">{t('entryIntro', { product })}</p>
      <form onSubmit={step} className="mt-4 space-y-4" noValidate>
        <TextField
          id="safety-phone"
          label={t('phone')}
          hint={t('phoneHint')}
          type="tel"
          autoComplete="tel"
          inputMode="tel"
          required
          value={phone}
          readOnly={sent}
          onChange={(e) => setPhone(e.target.value)}
        />
        {sent && (
          <div>
            <p role="status" className="mb-3 text-slate-800">
              {t('codeSent')}
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
        <SubmitButton
          busy={busy}
          label={sent ? t('open') : t('sendCode')}
          busyLabel={sent ? t('open') : t('sendCode')}
        />
      </form>
    </section>
  );
}
