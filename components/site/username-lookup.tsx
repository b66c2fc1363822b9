'use client';
import { useTranslations } from 'next-intl';
import { SubmitButton } from '../ui/form-alert';
import { TextField } from '../ui/text-field';
import { LookupResult } from './username-lookup-result';
import { useUsernameLookup } from './use-username-lookup';

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
  const { username, setUsername, nsfw, setNsfw, fieldError, busy, onSubmit, view, gone, error, onStop } =
    useUsernameLookup();

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
