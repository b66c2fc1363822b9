'use client';
import { useTranslations } from 'next-intl';
import { useState, useSyncExternalStore } from 'react';
import { detectEnv, outsideBrowser } from '@/lib/tracking/device';

const noSubscribe = () => () => {};

/**
 * Which full browser an in-app browser's visitor should open the page in (`outsideBrowser`: Safari on iOS, Chrome on
 * Android), read from the user agent after hydration; null outside an in-app browser and on the server.
 */
export function useOutsideBrowser(): 'safari' | 'chrome' | 'other' | null {
  return useSyncExternalStore(
    noSubscribe,
    () => outsideBrowser(detectEnv(navigator.userAgent)),
    () => null,
  );
}

/**
 * The owner's help when location was refused inside an in-app browser (Instagram, Facebook, TikTok…; docs/features.md
 * "Locating with consent"): such a browser has no address bar with a lock icon to allow location from, so the page
 * says to open the link in Safari or Chrome (`browser`), shows the link read-only (selected on focus, for a WebView
 * without the Clipboard API) and a Copy link button (`navigator.clipboard.writeText`, W3C Clipboard API) that says
 * when it has copied. `link`: the absolute address of this consent page, code included.
 */
export function OpenInBrowser({ browser, link }: { browser: 'safari' | 'chrome' | 'other'; link: string }) {
  const t = useTranslations('Consent');
  const [copied, setCopied] = useState(false);
  return (
    <div className="mt-1 space-y-2 text-sm" data-testid="open-in-browser">
      <p>{t('deniedInApp', { browser })}</p>
      <label htmlFor="consent-link" className="block font-medium">
        {t('linkLabel')}
      </label>
      <div className="flex gap-2">
        <input
          id="consent-link"
          readOnly
          value={link}
          onFocus={(event) => event.target.select()}
          className="min-h-11 min-w-0 flex-1 rounded-lg border border-amber-300 bg-white px-2 text-slate-900"
        />
        <CopyLinkButton link={link} label={t('copyLink')} onCopied={() => setCopied(true)} />
      </div>
      {copied && (
        <p role="status" className="font-medium">
          {t('linkCopied')}
        </p>
      )}
    </div>
  );
}

/**
 * The Copy link button beside the read-only `#consent-link` field: writes `link` to the clipboard
 * (`navigator.clipboard.writeText`) and then calls `onCopied`; in a WebView without the Clipboard API it focuses and
 * selects the field instead, for the phone's own copy menu. `label` is its text.
 */
function CopyLinkButton({ link, label, onCopied }: { link: string; label: string; onCopied: () => void }) {
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(link);
      onCopied();
    } catch {
      // No clipboard in this WebView: the link is selected for the phone's own copy menu.
      const field = document.getElementById('consent-link') as HTMLInputElement | null;
      field?.focus();
      field?.select();
    }
  };
  return (
    <button
      type="button"
      onClick={copy}
      className="min-h-11 shrink-0 rounded-lg bg-amber-900 px-3 font-semibold text-white"
    >
      {label}
    </button>
  );
}

/**
 * How to allow location again, under the consent page's notice that the browser refused it: from the lock icon next
 * to the address, or, in an in-app browser that has none (Instagram, Facebook…), by opening this consent page in
 * Safari or Chrome (OpenInBrowser, with the page's link carrying its consent `code`).
 */
export function LocationDeniedHelp({ code }: { code: string }) {
  const t = useTranslations('Consent');
  const inApp = useOutsideBrowser();
  return inApp ? (
    <OpenInBrowser browser={inApp} link={`${location.origin}${location.pathname}?c=${encodeURIComponent(code)}`} />
  ) : (
    <p className="mt-1 text-sm">{t('deniedHelp')}</p>
  );
}
