import { postKeepalive } from '../api/browser-fetch';
import { API_BASE, WEBSITE_TYPE } from '../api/request-parts';
import { SITE_DEFAULTS } from '../site';
import { buttonOs, detectEnv, phoneOs, postToNative } from './device';
import type { BrowserEvent } from './funnel';
import { COOKIE_CHOICE_EVENT, trackingAllowed } from './cookie-choice';
import { readCookies } from '../browser-cookies';
import { browserState, browserStore } from './state';

/**
 * The browser's three tracking calls (docs/rules.md#entities, #api). Every error is written to the console only:
 * tracking never shows a message or blocks the page.
 */

/** `apk_version_code` / `version` header of the operation log (docs/rules.md#entities). */
export const APP_VERSION = 'fmp1.3';
/** Origin of the button-click tracker; this site by default (NEXT_PUBLIC_TRACKER_ORIGIN at build time). */
export const TRACKER_ORIGIN = process.env.NEXT_PUBLIC_TRACKER_ORIGIN ?? '';
/** The `{hash}` of `POST /api_{hash}` (NEXT_PUBLIC_AD_EVENTS_HASH, the server reads the same setting). */
export const AD_EVENTS_HASH = process.env.NEXT_PUBLIC_AD_EVENTS_HASH || SITE_DEFAULTS.adEventsHash;

/** Set when the page is being left: a call cut short by the navigation is not an error worth logging. */
let leaving = false;
if (typeof window !== 'undefined') addEventListener('pagehide', () => (leaving = true));

function envNow() {
  return detectEnv(navigator.userAgent, browserState().isPackage);
}

/**
 * Sends an operation-log event with the client's request parts, kept alive past the page (lib/api/browser-fetch.ts):
 * body currDocument (path + query), domain, eventCode, eventType 1; headers apk_version_code and version 'fmp1.3',
 * phone_os (3 mobile, else 2), track_id (the event token). The event also goes to the native app when the page runs
 * inside it, and to the third-party event service once cookies are accepted. Resolves when sent or failed.
 */
export async function logEvent(eventCode: BrowserEvent): Promise<void> {
  const os = phoneOs(envNow());
  postToNative({ type: 'event', eventCode, path: location.pathname });
  forwardToEventService(eventCode);
  const locale = document.documentElement.lang || 'en';
  try {
    await postKeepalive(
      '/operationLog',
      {
        currDocument: `${location.pathname}${location.search}`.slice(0, 2000),
        domain: location.host,
        eventCode,
        eventType: 1,
      },
      locale,
      // track_id (the event token) is added to every call (lib/api/browser-fields.ts).
      { apk_version_code: APP_VERSION, version: APP_VERSION, phone_os: String(os) },
    );
  } catch (error) {
    if (!leaving) console.error('[operationLog]', error);
  }
}

/**
 * Records a button click: `POST {TRACKER_ORIGIN}/api_f/v1/operationLog/protal`, form-encoded apkChannel, btnId and
 * os (2 desktop, 1 iOS, 0 other mobile), as a simple request with `keepalive` so a click that leaves the page still
 * arrives. The response is only logged.
 */
export async function trackClick(btnId: string): Promise<void> {
  const body = new URLSearchParams({
    apkChannel: browserState().channel,
    btnId,
    os: String(buttonOs(envNow())),
  });
  try {
    const res = await fetch(`${TRACKER_ORIGIN}${API_BASE}/operationLog/protal`, {
      method: 'POST',
      body,
      keepalive: true,
    });
    if (!res.ok) console.error('[button click]', res.status);
  } catch (error) {
    if (!leaving) console.error('[button click]', error);
  }
}

/** Meta's click id cookie value for an `fbclid` (`fb.1.<ms>.<fbclid>`, Meta "fbp and fbc parameters" docs). */
export function fbcFromClickId(fbclid: string, now = Date.now()): string {
  return `fb.1.${now}.${fbclid}`;
}

const pendingAds: string[] = [];
let listening = false;

/**
 * Sends an ad conversion event (`POST {origin}/api_{hash}`, JSON: actionSource 'website', eventName, eventTime in
 * seconds, userData {fbc, fbp} from the `_fbc`/`_fbp` cookies or the address's fbclid), with
 * `?test=true&testEventCode=…` when local storage holds `testEventCode`. Only once the visitor accepted cookies:
 * before the choice the event waits in memory; after "Essential only" it is dropped.
 */
export function sendAdEvent(eventName: string): void {
  const choice = browserState().acceptCookie;
  if (choice === false) return;
  if (choice === undefined) {
    pendingAds.push(eventName);
    if (!listening) {
      listening = true;
      addEventListener(COOKIE_CHOICE_EVENT, () => {
        const queued = pendingAds.splice(0);
        if (browserState().acceptCookie) queued.forEach((name) => void postAdEvent(name));
      });
    }
    return;
  }
  void postAdEvent(eventName);
}

async function postAdEvent(eventName: string): Promise<void> {
  const cookies = readCookies();
  const fbclid = new URLSearchParams(location.search).get('fbclid');
  const userData = {
    fbc: cookies._fbc || (fbclid ? fbcFromClickId(fbclid) : undefined),
    fbp: cookies._fbp || undefined,
  };
  const testCode = browserStore().getItem('testEventCode');
  const query = testCode ? `?test=true&testEventCode=${encodeURIComponent(testCode)}` : '';
  try {
    const res = await fetch(`${location.origin}/api_${AD_EVENTS_HASH}${query}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', website_type: WEBSITE_TYPE },
      body: JSON.stringify({
        actionSource: 'website',
        eventName,
        eventTime: Math.floor(Date.now() / 1000),
        userData,
        eventSourceUrl: `${location.origin}${location.pathname}`,
      }),
      keepalive: true,
    });
    if (!res.ok) console.error('[ad event]', res.status);
  } catch (error) {
    if (!leaving) console.error('[ad event]', error);
  }
}

type GtagWindow = { dataLayer?: unknown[]; gtag?: (...args: unknown[]) => void };
const EVENT_SERVICE = process.env.NEXT_PUBLIC_EVENT_SERVICE || 'none';
const GA_ID = process.env.NEXT_PUBLIC_GA_MEASUREMENT_ID || '';

/**
 * The third-party event service (docs/rules.md#api), chosen by NEXT_PUBLIC_EVENT_SERVICE: `none` (default) or `gtag`
 * (Google Analytics 4, NEXT_PUBLIC_GA_MEASUREMENT_ID). Started only after the visitor accepted cookies; returns
 * whether it runs.
 */
export function startEventService(win: GtagWindow & Window = window as GtagWindow & Window): boolean {
  if (EVENT_SERVICE !== 'gtag' || !GA_ID || !trackingAllowed()) return false;
  if (win.gtag) return true;
  win.dataLayer = win.dataLayer ?? [];
  win.gtag = function gtag() {
    // gtag.js reads the arguments object itself (Google tag docs).
    // eslint-disable-next-line prefer-rest-params
    win.dataLayer!.push(arguments);
  };
  win.gtag('js', new Date());
  win.gtag('config', GA_ID);
  const script = document.createElement('script');
  script.async = true;
  script.src = `https://www.googletagmanager.com/gtag/js?id=${encodeURIComponent(GA_ID)}`;
  document.head.appendChild(script);
  return true;
}

function forwardToEventService(eventCode: string): void {
  const win = window as GtagWindow & Window;
  if (startEventService(win)) win.gtag?.('event', eventCode, { page_path: location.pathname });
}
