import { getTranslations, setRequestLocale } from 'next-intl/server';
import { cookies } from 'next/headers';
import { LocalTime } from '@/components/safety/local-time';
import { QuickExit } from '@/components/safety/quick-exit';
import { NumberActions, RequestActions } from '@/components/safety/safety-actions';
import { SafetyEntry } from '@/components/safety/safety-entry';
import { ClientMessages } from '@/components/ui/client-messages';
import type { Locale } from '@/i18n/routing';
import { titled } from '@/lib/page-title';
import { formatPhone } from '@/lib/phone-format';
import type { SafetyRequest } from '@/lib/contracts/safety';
import { cookieNameFor, SAFETY_COOKIE_BASE } from '@/lib/session-cookie-names';
import { site } from '@/lib/site';
import { getDb } from '@/server/db/client';
import { canBlockEveryone, canUndoBlocks, safetyOverview, sessionOf } from '@/server/services/safety';

/** Read per visit: the list is the session's number's, never cached or prerendered. */
export const dynamic = 'force-dynamic';

/**
 * `/safety/`: the phone owner's safety centre (server/services/safety/). With a live safety-centre session (its
 * HttpOnly cookie, lib/session-cookie-names.ts) the server renders every request made to that number, newest first,
 * so the list reads without JavaScript; the actions are client islands with a confirmation and a receipt. Without a
 * session it offers the way in (`?c=` from a consent page, or the number and a code by SMS). A session opened from a
 * consent link shows that link's requester's requests only, says so, and offers a code sent by SMS to the number right
 * there to see every request (docs/rules.md#consent). A single-purpose page in the consent page's frame
 * (components/share/owner-shell.tsx), with a quick exit in an opaque strip at the top that stays in reach.
 */
export default async function SafetyPage({
  params,
  searchParams,
}: {
  params: Promise<{ locale: Locale }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { locale } = await params;
  setRequestLocale(locale);
  const t = await getTranslations({ locale, namespace: 'Safety' });
  const token = (await cookies()).get(cookieNameFor(SAFETY_COOKIE_BASE, process.env.APP_ORIGIN))?.value;
  const db = await getDb();
  const session = await sessionOf(db, token);
  const code = (await searchParams).c;
  const overview = session ? await safetyOverview(db, session.e164, new Date(), session.requesterId) : null;
  // A session opened with a consent link cannot undo a block nor block everyone: the requester may hold that link too.
  const canUndo = session ? canUndoBlocks(session.via) : false;
  const canBlockAll = session ? canBlockEveryone(session.via) : false;
  return (
    <ClientMessages namespaces={['Safety', 'Consent']}>
      <div className="mx-auto max-w-lg" data-testid="safety-centre">
        {/* Kept in reach while the list scrolls: an opaque strip of its own, so the button never floats over text. */}
        <div
          className="sticky top-0 z-10 -mx-4 flex justify-end border-b border-slate-200 bg-slate-50 px-4 py-2"
          data-testid="quick-exit-bar"
        >
          <QuickExit label={t('quickExit')} help={t('quickExitHelp')} />
        </div>
        <h1 className="mt-3 text-2xl font-bold">{t('title')}</h1>
        {!overview ? (
          <SafetyEntry code={typeof code === 'string' ? code : null} product={site.product} />
        ) : (
          <>
            <p className="mt-2 text-slate-800" data-testid="safety-intro">
              {t(session?.requesterId ? 'introLink' : 'intro', {
                product: site.product,
                phone: formatPhone(overview.phone),
              })}
            </p>
            <p className="mt-1 text-sm text-slate-600">{t('sessionNote')}</p>
            {session?.requesterId && (
              <section className="mt-3 rounded-lg bg-amber-50 p-3 text-amber-950" data-testid="link-scope">
                <p className="text-sm">{t('linkScope')}</p>
                <SafetyEntry code={null} product={site.product} number={overview.phone} />
              </section>
            )}
            <NumberActions
              optedOut={overview.optedOut}
              undoable={overview.undoable}
              canUndo={canUndo}
              canBlockEveryone={canBlockAll}
              product={site.product}
            />
            <h2 className="mt-8 text-xl font-semibold">{t('requests')}</h2>
            {overview.requests.length === 0 ? (
              <p className="mt-2 text-slate-700">{t('empty', { product: site.product })}</p>
            ) : (
              <ol className="mt-3 space-y-4" data-testid="safety-list">
                {overview.requests.map((r) => (
                  <li key={r.id}>
                    <RequestCard
                      request={r}
                      locale={locale}
                      days={overview.consentRetentionDays}
                      canUndo={canUndo}
                      t={t}
                    />
                  </li>
                ))}
              </ol>
            )}
            <p className="mt-8 rounded-lg bg-slate-50 p-3 text-sm text-slate-700">{t('safety')}</p>
          </>
        )}
      </div>
    </ClientMessages>
  );
}

type T = Awaited<ReturnType<typeof getTranslations<'Safety'>>>;

/** A sharing time in the owner's words: "less than a minute", "25 minutes", "1 hour 5 minutes". */
function duration(ms: number, t: T): string {
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 1) return t('lessThanMinute');
  if (minutes < 60) return t('minutes', { minutes });
  return t('hoursMinutes', { hours: Math.floor(minutes / 60), minutes: minutes % 60 }).trim();
}

/** One request: its reference, who asked, when, the note, its state, how long it shared, the map views, its actions. */
function RequestCard({
  request: r,
  locale,
  days,
  canUndo,
  t,
}: {
  request: SafetyRequest;
  locale: string;
  days: number;
  canUndo: boolean;
  t: T;
}) {
  const row = 'grid grid-cols-[minmax(0,7rem)_1fr] gap-x-3 gap-y-1 text-sm';
  return (
    <article
      className="rounded-2xl bg-white p-4 shadow ring-1 ring-slate-200"
      data-testid="safety-request"
      data-state={r.state}
      aria-labelledby={`req-${r.id}`}
    >
      <h3 id={`req-${r.id}`} className="break-words text-lg font-semibold text-slate-900">
        {r.requesterName ?? t('unnamed')}
      </h3>
      <p className="break-words text-sm text-slate-700">{t('account', { email: r.requester })}</p>
      <dl className={`mt-3 ${row}`}>
        <dt className="text-slate-600">{t('reference')}</dt>
        <dd className="font-mono font-semibold tracking-wide" data-testid="reference">
          {r.reference}
        </dd>
        <dt className="text-slate-600">{t('asked')}</dt>
        <dd>
          <LocalTime iso={r.createdAt} locale={locale} />
        </dd>
        <dt className="text-slate-600">{t('state')}</dt>
        <dd className="font-semibold" data-testid="request-state">
          {t(`states.${r.state}`)}
        </dd>
        <dt className="text-slate-600">{t('shared')}</dt>
        <dd>{r.sharedMs > 0 ? duration(r.sharedMs, t) : t('neverShared')}</dd>
      </dl>
      {r.note && (
        <figure className="mt-3 border-l-4 border-slate-300 pl-3">
          <figcaption className="text-xs font-medium uppercase tracking-wide text-slate-600">{t('note')}</figcaption>
          <blockquote className="mt-1 break-words text-slate-900">{r.note}</blockquote>
        </figure>
      )}
      <RequestViews request={r} locale={locale} t={t} />
      <p className="mt-2 text-sm text-slate-800">{t('positionsLeft', { count: r.positions })}</p>
      {r.erasedAt && (
        <p className="mt-2 text-sm text-slate-800" data-testid="erased">
          {t.rich('erased', {
            time: () => <LocalTime iso={r.erasedAt!} locale={locale} />,
            days,
          })}
        </p>
      )}
      {r.blocked && <p className="mt-2 text-sm font-semibold text-slate-900">{t('blockedNote')}</p>}
      <RequestActions
        requestId={r.id}
        blocked={r.blocked}
        canUndo={canUndo}
        positions={r.positions}
        reported={r.state === 'reported'}
        product={site.product}
      />
    </article>
  );
}

/** The request's map views: how many, then the first ten times (in the reader's zone) and how many more. */
function RequestViews({ request: r, locale, t }: { request: SafetyRequest; locale: string; t: T }) {
  return (
    <div className="mt-3 text-sm text-slate-800" data-testid="views">
      <p>{t('views', { count: r.viewCount })}</p>
      {r.views.length > 0 && (
        <ul className="mt-1 list-disc pl-5">
          {r.views.slice(0, 10).map((v) => (
            <li key={v}>
              <LocalTime iso={v} locale={locale} />
            </li>
          ))}
          {r.viewCount > 10 && <li>{t('moreViews', { count: r.viewCount - 10 })}</li>}
        </ul>
      )}
    </div>
  );
}

/** Its own tab title; not for search engines (robots.txt disallows it too). */
export const generateMetadata = titled('safety');
