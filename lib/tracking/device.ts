import { SITE_DEFAULTS } from '../site';
import { STORAGE_KEYS } from './state';

/**
 * Environment detection and the native-app bridge (docs/rules.md#states). Detection is by user agent, pure and
 * tested with real user-agent strings; the bridge and the WebP probe take their window/canvas as arguments.
 */

/** What the page runs in. `inApp`: a WebView inside another app (Facebook, Instagram, WeChat, QQ, …) or ours. */
export type BrowserEnv = {
  inApp: boolean;
  android: boolean;
  ios: boolean;
  wechat: boolean;
  qq: boolean;
  mobile: boolean;
};

/** User-agent marks of in-app browsers: Facebook, Messenger, Instagram, WeChat, QQ, LINE, TikTok, Snapchat, X. */
const IN_APP =
  /FBAN|FBAV|FB_IAB|FBIOS|Instagram|MicroMessenger|\bQQ\/|\bLine\/|musical_ly|BytedanceWebview|TikTok|Snapchat|Twitter/i;

/**
 * Detects the environment from a user agent. `isPackage` (our app's `?package=` flag, lib/tracking/state) marks the
 * page as in-app too. An Android WebView says `; wv)`; an iOS WebView has AppleWebKit but no `Safari/` token.
 */
export function detectEnv(ua: string, isPackage = false): BrowserEnv {
  const android = /Android/i.test(ua);
  const ios = /iPhone|iPad|iPod/i.test(ua) || (/Macintosh/.test(ua) && /Mobile\//.test(ua));
  const wechat = /MicroMessenger/i.test(ua);
  const qq = /\bQQ\//i.test(ua);
  const mobile = android || ios || /Mobi|Windows Phone|BlackBerry|Opera Mini/i.test(ua);
  const androidWebView = android && /; wv\)/.test(ua);
  const iosWebView = ios && /AppleWebKit/.test(ua) && !/Safari\//.test(ua) && !/CriOS|FxiOS|EdgiOS/.test(ua);
  const inApp = isPackage || IN_APP.test(ua) || androidWebView || iosWebView;
  return { inApp, android, ios, wechat, qq, mobile };
}

/**
 * Where to send a visitor whose in-app browser (Instagram's, Facebook's, TikTok's…) withholds something only a full
 * browser gives, such as the location prompt: `safari` on iOS, `chrome` on Android, `other` elsewhere; null outside an
 * in-app browser. In-app browsers show no address bar with the site's lock icon, so the usual "allow location in the
 * site settings" help does not apply there (docs/features.md "Locating with consent", the owner's page).
 */
export function outsideBrowser(env: BrowserEnv): 'safari' | 'chrome' | 'other' | null {
  if (!env.inApp) return null;
  return env.ios ? 'safari' : env.android ? 'chrome' : 'other';
}

/** `phone_os` / `phoneOs` / `os` of API calls and the operation log (docs/rules.md#entities, #api): 3 on mobile, else 2. */
export function phoneOs(env: BrowserEnv): 2 | 3 {
  return env.mobile ? 3 : 2;
}

/** `os` of a button-click record (docs/rules.md#entities): 2 desktop; on mobile 1 iOS, 0 otherwise. */
export function buttonOs(env: BrowserEnv): 0 | 1 | 2 {
  if (!env.mobile) return 2;
  return env.ios ? 1 : 0;
}

/** Names of the native bridges; NEXT_PUBLIC_IOS_BRIDGE / NEXT_PUBLIC_ANDROID_BRIDGE override them at build time. */
export const BRIDGE_NAMES = {
  ios: process.env.NEXT_PUBLIC_IOS_BRIDGE || SITE_DEFAULTS.iosBridge,
  android: process.env.NEXT_PUBLIC_ANDROID_BRIDGE || SITE_DEFAULTS.androidBridge,
};

type BridgeWindow = {
  webkit?: { messageHandlers?: Record<string, { postMessage(message: unknown): void } | undefined> };
} & Record<string, unknown>;

/**
 * Posts `message` to the native app hosting the page (docs/rules.md#states): iOS through
 * `webkit.messageHandlers[names.ios].postMessage(message)` (WKWebView structured clone), Android through
 * `window[names.android].postMessage(JSON string)` (a JavascriptInterface takes strings). Returns which bridge
 * took it, or null outside our app. A bridge that throws is reported on the console only.
 */
export function postToNative(
  message: Record<string, unknown>,
  win: BridgeWindow = globalThis as unknown as BridgeWindow,
  names = BRIDGE_NAMES,
): 'ios' | 'android' | null {
  try {
    const ios = win.webkit?.messageHandlers?.[names.ios];
    if (ios) {
      ios.postMessage(message);
      return 'ios';
    }
    const android = win[names.android] as { postMessage?: (json: string) => void } | undefined;
    if (android && typeof android.postMessage === 'function') {
      android.postMessage(JSON.stringify(message));
      return 'android';
    }
  } catch (error) {
    console.error('native bridge', error);
  }
  return null;
}

/**
 * WebP support (docs/rules.md#states), probed once with a 1×1 canvas and kept under `webp` in `store` ('1' or '0'), so later
 * pages read it without drawing. `canvas` makes the probe canvas (document.createElement in the browser).
 */
export function detectWebp(
  store: Pick<Storage, 'getItem' | 'setItem'>,
  canvas: () => { width: number; height: number; toDataURL(type: string): string } = () =>
    document.createElement('canvas'),
): boolean {
  const known = store.getItem(STORAGE_KEYS.webp);
  if (known === '1' || known === '0') return known === '1';
  let supported = false;
  try {
    const c = canvas();
    c.width = c.height = 1;
    supported = c.toDataURL('image/webp').startsWith('data:image/webp');
  } catch {
    supported = false;
  }
  store.setItem(STORAGE_KEYS.webp, supported ? '1' : '0');
  return supported;
}
