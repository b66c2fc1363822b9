'use client';
import { useLocale, useTranslations } from 'next-intl';
import { useEffect, useState } from 'react';
import { localePath } from '@/i18n/routing';
import { SESSION_INVALID, type ApiClientError } from '@/lib/api/client';
import type { ConsentReceipt } from '@/lib/contracts/billing';
import { formatDateTime } from '@/lib/intl-format';
import { currencyFormat } from '@/lib/money';
import { Link } from '@/components/ui/link';
import { SignInPrompt } from '@/components/ui/sign-in-prompt';
import { useApi } from '../ui/use-api';

/** The download of the same receipts: the JSON array without the API's envelope (server/api/routes/billing.ts). */
const FILE_URL = '/api_f/v1/admin/user/consentReceipts/file';

/** A decimal amount of the receipt (`"0.50"`, `"USD"`) as money in the reader's `locale` (lib/money.ts): "US$0.50". */
function money({ amount, currency }: ConsentReceipt['trialPrice'], locale: string): string {
  return currencyFormat(locale, currency).format(Number(amount));
}

/**
 * The buyer's receipts of what they agreed to at Pay (`/dashboard/billing/consent/`), from
 * `GET /admin/user/consentReceipts` (lib/contracts/billing.ts `consentReceiptSchema`): one section per order, named by
 * its reference (`CH-7K4M-2Q`, also the section's anchor), with the time in the reader's zone and in UTC (ISO 8601),
 * the prices as money in the page's language, whether the buyer asked to start at once (Directive 2011/83/EU
 * Art. 7(3)), the terms text exactly as shown (in the pay step's language, marked with `lang`), its version and
 * SHA-256, and the address and browser recorded. Records are append-only (server/db/schema), which the page says in
 * place of an age. Print prints the receipts alone (styles/globals.css hides the rest of the page through
 * `data-print-root`); Download gives the same records as a JSON file. Signed out: the sign-in prompt.
 */
export function ConsentReceipts() {
  const t = useTranslations('ConsentReceipts');
  const locale = useLocale();
  const api = useApi();
  const [receipts, setReceipts] = useState<ConsentReceipt[] | null>(null);
  const [error, setError] = useState<{ message: string; signedOut: boolean } | null>(null);
  useEffect(() => {
    api
      .call('GET /admin/user/consentReceipts')
      .then(setReceipts, (e: ApiClientError) =>
        setError({ message: e.message, signedOut: e.code === SESSION_INVALID }),
      );
  }, [api]);

  return (
    <section className="space-y-6" data-print-root="">
      <Link href={localePath(locale, '/dashboard/billing/')} className="text-sm text-brand underline print:hidden">
        {t('back')}
      </Link>
      <h1 className="text-2xl font-bold">{t('heading')}</h1>
      <p className="max-w-prose text-slate-700">{t('intro')}</p>
      {error && (error.signedOut ? <SignInPrompt /> : <p role="alert">{error.message}</p>)}
      {!receipts && !error && <p aria-busy="true">…</p>}
      {receipts && receipts.length === 0 && <p data-testid="no-receipts">{t('none')}</p>}
      {receipts && receipts.length > 0 && (
        <div className="flex flex-wrap items-center gap-3 print:hidden">
          <button
            type="button"
            onClick={() => window.print()}
            className="min-h-11 rounded-lg bg-brand px-4 font-semibold text-white"
          >
            {t('print')}
          </button>
          <Link href={FILE_URL} download className="min-h-11 content-center text-brand underline">
            {t('download')}
          </Link>
          <p className="w-full text-sm text-slate-600">{t('downloadNote')}</p>
        </div>
      )}
      {receipts?.map((r) => (
        <ReceiptArticle key={r.orderReference + r.agreedAt} receipt={r} />
      ))}
    </section>
  );
}

/**
 * One receipt as an article anchored by its order reference (`CH-7K4M-2Q`): the time agreed in the reader's zone and
 * as recorded (ISO 8601, UTC), the e-mail, both prices as money in the page's language, whether the buyer asked to
 * start at once, the terms version, the terms text exactly as shown (marked with its own `lang`, its language named
 * in the page's), their SHA-256, and the address and browser recorded ("not recorded" where none was).
 */
function ReceiptArticle({ receipt: r }: { receipt: ConsentReceipt }) {
  const t = useTranslations('ConsentReceipts');
  const locale = useLocale();
  const languageName = (tag: string) => new Intl.DisplayNames([locale], { type: 'language' }).of(tag) ?? tag;
  return (
    <article
      id={r.orderReference}
      data-testid="consent-receipt"
      className="space-y-4 rounded-xl border border-slate-200 p-4 break-inside-avoid sm:p-6"
    >
      <h2 className="text-lg font-semibold">{t('order', { reference: r.orderReference })}</h2>
      <dl className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-[max-content_1fr]">
        <dt className="text-slate-600">{t('agreedAt')}</dt>
        <dd data-testid="receipt-time" className="font-medium">
          {formatDateTime(r.agreedAt, locale)} <span className="text-slate-500">({r.agreedAt})</span>
        </dd>
        <dt className="text-slate-600">{t('email')}</dt>
        <dd className="break-all">{r.email}</dd>
        <dt className="text-slate-600">{t('trialPrice')}</dt>
        <dd data-testid="receipt-trial">{money(r.trialPrice, locale)}</dd>
        <dt className="text-slate-600">{t('monthlyPrice')}</dt>
        <dd data-testid="receipt-monthly">{money(r.monthlyPrice, locale)}</dd>
        <dt className="text-slate-600">{t('startNow')}</dt>
        <dd>{r.startNow ? t('startNowYes') : t('startNowNo')}</dd>
        <dt className="text-slate-600">{t('termsVersion')}</dt>
        <dd className="font-mono break-all" data-testid="receipt-version">
          {r.terms.version}
        </dd>
      </dl>
      <div>
        <h3 className="text-sm font-semibold">{t('termsShown', { language: languageName(r.locale) })}</h3>
        <blockquote
          lang={r.locale}
          data-testid="receipt-terms"
          className="mt-2 space-y-1.5 border-l-4 border-slate-300 bg-slate-50 py-2 pl-3 text-sm"
        >
          {r.terms.text.split('\n').map((line, i) => (
            <p key={i}>{line}</p>
          ))}
        </blockquote>
      </div>
      <dl className="grid gap-x-6 gap-y-2 text-xs text-slate-600 sm:grid-cols-[max-content_1fr]">
        <dt>{t('fingerprint')}</dt>
        <dd className="font-mono break-all">{r.terms.sha256}</dd>
        <dt>{t('device')}</dt>
        <dd className="break-all">
          {r.ip ?? t('notRecorded')} · {r.userAgent ?? t('notRecorded')}
        </dd>
      </dl>
    </article>
  );
}
