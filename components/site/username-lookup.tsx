'use client';
import { useLocale, useTranslations } from 'next-intl';
import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { useCallback, useState, type FormEvent } from 'react';
import type { ApiClientError } from '@/lib/api/client';
import type { UsernameLookupView as View } from '@/lib/contracts/username-lookup';
import { formatTime } from '@/lib/intl-format';
import { lookupVerdict, type VerdictKind } from '@/lib/username-verdict';
import { usernameProblem } from '@/lib/validation/username';
import { Link } from '../ui/link';
import { SubmitButton } from '../ui/form-alert';
import { TextField } from '../ui/text-field';
import { useApi } from '../ui/use-api';
import { usePolling } from '../ui/use-polling';

/** How often a running lookup's progress is read (ms). */
const PROGRESS_MS = 1000;

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
 * The reverse username lookup of `/username-lookup`: a username field (checked by `usernameProblem`,
 * the API's rule) and "also adult sites", off by default; Search starts a lookup (`POST /usernameLookup`) and puts
 * its id in the address (`?id=`), so the result page can be reopened for an hour. While it runs, the real progress
 * from the server every second (a progress bar and "N of M sites checked", both the server's count of sites
 * answered), the profiles found so far as they come in, and Stop; nothing is concluded before the end. Then a
 * headline worded by `lookupVerdict` (lib/username-verdict.ts: "no profile found" only when nearly every site
 * answered clearly; unknown, not negative, when most did not answer or some were never asked), the profiles found
 * with links, how many sites gave no clear answer, and that a profile of the same name need not be the same person.
 * A lookup the service's hourly request budget cut short (`capped`) says how many sites were not checked; a start
 * refused as busy (429, the API's localized message) shows that message as an alert, not as a problem of the
 * username. An expired or unknown id says so. Needs the `UsernameLookup` and `Validation` messages.
 */
export function UsernameLookup() {
  const t = useTranslations('UsernameLookup');
  const api = useApi();
  const router = useRouter();
  const pathname = usePathname();
  const id = useSearchParams().get('id');
  const [username, setUsername] = useState('');
  const [nsfw, setNsfw] = useState(false);
  const [fieldError, setFieldError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [view, setView] = useState<View | null>(null);
  const [gone, setGone] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const step = useCallback(
    async (active: () => boolean) => {
      if (!id) return false;
      try {
        const next = await api.call('GET /usernameLookup/{id}', { params: { id } });
        if (!active()) return false;
        setView(next);
        setError(null);
        return next.status === 'running';
      } catch (e) {
        if (!active()) return false;
        if ((e as ApiClientError).status === 404) {
          setGone(true);
          return false;
        }
        setError((e as Error).message);
        return true;
      }
    },
    [api, id],
  );
  usePolling(step, PROGRESS_MS);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const problem = usernameProblem(username);
    setFieldError(problem ?? undefined);
    setError(null);
    if (problem) return;
    setBusy(true);
    try {
      const started = await api.call('POST /usernameLookup', { body: { username, nsfw } });
      setView(null);
      setGone(false);
      router.replace(`${pathname}?id=${started.id}`, { scroll: false });
    } catch (e) {
      if ((e as ApiClientError).status === 422) setFieldError((e as Error).message);
      else setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };

  const onStop = async () => {
    if (!id) return;
    try {
      setView(await api.call('POST /usernameLookup/{id}/stop', { params: { id } }));
    } catch (e) {
      setError((e as Error).message);
    }
  };

  return (
    <div className="space-y-6">
      <form onSubmit={onSubmit} noValidate className="space-y-3" data-testid="username-form">
        <TextField
          id="username"
          label={t('label')}
          value={username}
          onChange={(e) => setUsername(e.target.value)}
          error={fieldError}
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          maxLength={80}
          placeholder={t('placeholder')}
        />
        <label className="flex min-h-11 items-center gap-3 text-sm text-slate-800">
          <input type="checkbox" className="h-5 w-5" checked={nsfw} onChange={(e) => setNsfw(e.target.checked)} />
          {t('nsfw')}
        </label>
        <SubmitButton busy={busy} label={t('submit')} busyLabel={t('starting')} wide="phone" />
      </form>

      {gone && (
        <p role="status" className="rounded-lg bg-slate-100 p-3 text-slate-800" data-testid="lookup-gone">
          {t('gone')}
        </p>
      )}
      {error && (
        <p role="alert" className="text-sm text-red-700">
          {error}
        </p>
      )}
      {view && !gone && <LookupResult view={view} onStop={onStop} />}
    </div>
  );
}

/**
 * One lookup's result as the server reports it (`view`, GET /usernameLookup/{id}): the headline once it is over, the
 * progress bar (role `progressbar`, its value the sites answered of `total`, moved only by the server's count), the
 * status line, Stop while it runs (`onStop`), the profiles found so far and the notes.
 */
function LookupResult({ view, onStop }: { view: View; onStop: () => void }) {
  const t = useTranslations('UsernameLookup');
  const locale = useLocale();
  const verdict = lookupVerdict(view);
  const running = verdict.kind === 'running';
  const progress = t('progress', { checked: view.checked, total: view.total, found: view.found.length });
  const percent = view.total > 0 ? Math.min(100, (view.checked / view.total) * 100) : 100;
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
      {running && (
        <button
          type="button"
          onClick={onStop}
          className="min-h-11 rounded-lg border border-slate-400 px-4 font-semibold text-slate-800 hover:bg-slate-50"
        >
          {t('stop')}
        </button>
      )}
      {running && view.found.length > 0 && (
        <p className="text-sm font-semibold text-slate-800" id="lookup-found-title">
          {t('foundSoFar')}
        </p>
      )}
      {view.found.length > 0 && (
        <ul
          className="divide-y divide-slate-200"
          data-testid="lookup-found"
          aria-labelledby={running ? 'lookup-found-title' : undefined}
        >
          {view.found.map((f) => (
            <li key={f.site} className="flex flex-wrap items-baseline justify-between gap-2 py-2">
              <Link href={f.url} target="_blank" className="min-h-6 font-semibold text-brand underline">
                {f.site}
              </Link>
              <span className="text-xs text-slate-600">{f.category}</span>
            </li>
          ))}
        </ul>
      )}
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
