'use client';
import { useLocale, useTranslations } from 'next-intl';
import type { UsernameLookupView as View } from '@/lib/contracts/username-lookup';
import { formatTime } from '@/lib/intl-format';
import { lookupVerdict, type VerdictKind } from '@/lib/username-verdict';
import { Link } from '../ui/link';

/** The headline's colours: a clear answer in green or grey, anything uncertain in amber. */
const VERDICT_TONE: Record<Exclude<VerdictKind, 'running'>, string> = {
  found: 'bg-emerald-50 text-emerald-900 ring-emerald-200',
  foundIncomplete: 'bg-amber-50 text-amber-900 ring-amber-200',
  none: 'bg-slate-100 text-slate-900 ring-slate-200',
  noneAmongClear: 'bg-amber-50 text-amber-900 ring-amber-200',
  unknown: 'bg-amber-50 text-amber-900 ring-amber-200',
  unknownIncomplete: 'bg-amber-50 text-amber-900 ring-amber-200',
};

/**
 * One lookup's result as the server reports it (`view`, GET /usernameLookup/{id}): the headline once it is over, the
 * progress bar (role `progressbar`, its value the sites answered of `total`, moved only by the server's count), the
 * status line, Stop while it runs (`onStop`), the profiles found so far and the notes. Needs the `UsernameLookup`
 * messages.
 */
export function LookupResult({ view, onStop }: { view: View; onStop: () => void }) {
  const t = useTranslations('UsernameLookup');
  const locale = useLocale();
  const verdict = lookupVerdict(view);
  const running = verdict.kind === 'running';
  return (
    <section aria-labelledby="lookup-title" className="space-y-4 rounded-2xl bg-white p-4 ring-1 ring-slate-200">
      <h2 id="lookup-title" className="text-xl font-semibold break-words">
        {t('resultTitle', { username: view.username })}
      </h2>
      <div role="status" className="space-y-2">
        {verdict.kind !== 'running' && (
          <p
            className={`rounded-xl p-3 text-base font-semibold ring-1 ${VERDICT_TONE[verdict.kind]}`}
            data-testid="lookup-verdict"
            data-verdict={verdict.kind}
          >
            {t(`verdict.${verdict.kind}`, verdict)}
          </p>
        )}
        <p className="text-sm font-medium text-slate-900" data-testid="lookup-status">
          {t(`status.${view.status}`, { count: view.notChecked })}
        </p>
      </div>
      <LookupProgress view={view} running={running} />
      {running && (
        <button
          type="button"
          onClick={onStop}
          className="min-h-11 rounded-lg border border-slate-400 px-4 font-semibold text-slate-800 hover:bg-slate-50"
        >
          {t('stop')}
        </button>
      )}
      <FoundProfiles found={view.found} running={running} />
      <p className="text-sm text-slate-600" data-testid="lookup-notes">
        {running
          ? verdict.unclear > 0 && `${t('unknownSoFar', { count: verdict.unclear })} `
          : `${t('unknownNote', { count: verdict.unclear })} `}
        {t('samePerson')}
      </p>
      <p className="text-xs text-slate-500">{t('kept', { time: formatTime(view.expiresAt, locale) })}</p>
    </section>
  );
}

/**
 * A lookup's progress: the bar (role `progressbar`, its value `view.checked` of `view.total` sites answered, in the
 * brand colour while it is `running`) and the line "N of M sites checked" with the profiles found.
 */
function LookupProgress({ view, running }: { view: View; running: boolean }) {
  const t = useTranslations('UsernameLookup');
  const progress = t('progress', { checked: view.checked, total: view.total, found: view.found.length });
  const percent = view.total > 0 ? Math.min(100, (view.checked / view.total) * 100) : 100;
  return (
    <div>
      <div
        role="progressbar"
        aria-label={t('progressLabel')}
        aria-valuemin={0}
        aria-valuemax={view.total}
        aria-valuenow={view.checked}
        aria-valuetext={progress}
        className="h-3 w-full overflow-hidden rounded-full bg-slate-200"
        data-testid="lookup-bar"
      >
        <div
          className={`h-full rounded-full transition-[width] duration-700 ease-out motion-reduce:transition-none ${
            running ? 'bg-brand' : 'bg-slate-500'
          }`}
          style={{ width: `${percent}%` }}
        />
      </div>
      <p className="mt-1 text-sm text-slate-700 tabular-nums" data-testid="lookup-progress">
        {progress}
      </p>
    </div>
  );
}

/**
 * The profiles found (`found`), each its site's link and category; while the lookup is `running`, under the title
 * "found so far" that names the list. Nothing when none is found.
 */
function FoundProfiles({ found, running }: { found: View['found']; running: boolean }) {
  const t = useTranslations('UsernameLookup');
  return (
    <>
      {running && found.length > 0 && (
        <p className="text-sm font-semibold text-slate-800" id="lookup-found-title">
          {t('foundSoFar')}
        </p>
      )}
      {found.length > 0 && (
        <ul
          className="divide-y divide-slate-200"
          data-testid="lookup-found"
          aria-labelledby={running ? 'lookup-found-title' : undefined}
        >
          {found.map((f) => (
            <li key={f.site} className="flex flex-wrap items-baseline justify-between gap-2 py-2">
              <Link href={f.url} target="_blank" className="min-h-6 font-semibold text-brand underline">
                {f.site}
              </Link>
              <span className="text-xs text-slate-600">{f.category}</span>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
