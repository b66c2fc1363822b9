/**
 * Browser tracking state (docs/rules.md#entities "Browser storage"): what the visitor's first and later visits
 * carried, kept in local storage, plus the cookies the API and trackers read. Pure functions over a `KeyValueStore`
 * and the page's cookies (name → decoded value), so they run the same in tests and in the browser; `browserState()`
 * binds them to the page (cookies through lib/browser-cookies.ts).
 *
 * Attribution is last-touch: a parameter present in the address replaces the stored value; an absent one keeps it.
 */
import { readCookies, writePreferenceCookie } from '../browser-cookies';

/** Local-storage keys, named as docs/rules.md#entities names them. */
export const STORAGE_KEYS = {
  eventToken: 'eventToken',
  keyword: 'utm_term',
  channel: 'channel',
  globalMethod: 'global_method',
  hmci: 'hmci',
  gclid: 'gclid',
  wbraid: 'wbraid',
  uuid: 'uuid',
  /** '1' when the page was opened by our native app (`?package=` in its first address). */
  packageFlag: 'package',
  /** '1' or '0': WebP support, detected once (docs/rules.md#states). */
  webp: 'webp',
} as const;

/** The channel of a visitor who arrived without one (docs/rules.md#entities). */
export const DEFAULT_CHANNEL = 'SEO';
/** The `website_type` cookie and header value (docs/rules.md#entities). */
export const WEBSITE_TYPE = 7;
/** The longest value kept from an address parameter (longer values are cut, never rejected). */
const MAX_VALUE = 200;

/** The subset of `Storage` used here; an in-memory map stands in when local storage is unavailable. */
export type KeyValueStore = Pick<Storage, 'getItem' | 'setItem'>;

/** Address parameter → storage key (docs/rules.md#entities: `utm_term` is the keyword, `methods` the global method, `utm_medium` hmci). */
const PARAM_KEYS: [param: string, key: string][] = [
  ['utm_term', STORAGE_KEYS.keyword],
  ['keyword', STORAGE_KEYS.keyword],
  ['channel', STORAGE_KEYS.channel],
  ['methods', STORAGE_KEYS.globalMethod],
  ['utm_medium', STORAGE_KEYS.hmci],
  ['gclid', STORAGE_KEYS.gclid],
  ['wbraid', STORAGE_KEYS.wbraid],
];

/** 32 random bytes as 64 lower-case hex characters (docs/rules.md#entities eventToken). */
export function newEventToken(random: (bytes: Uint8Array) => Uint8Array = (b) => crypto.getRandomValues(b)): string {
  return Array.from(random(new Uint8Array(32)), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Whether `value` has the shape of an event token. */
export function isEventToken(value: string | null | undefined): value is string {
  return !!value && /^[0-9a-f]{64}$/.test(value);
}

/**
 * Records a page view's address in `store`: makes the event token and uuid on the first visit, and stores each
 * tracked parameter present in `search` (the raw query, with or without '?'). `utm_term` wins over `keyword` when
 * both are given. Returns the state as read afterwards.
 */
export function captureTracking(
  search: string,
  store: KeyValueStore,
  cookies: Record<string, string | undefined> = {},
): TrackingState {
  if (!isEventToken(store.getItem(STORAGE_KEYS.eventToken))) store.setItem(STORAGE_KEYS.eventToken, newEventToken());
  if (!store.getItem(STORAGE_KEYS.uuid)) store.setItem(STORAGE_KEYS.uuid, crypto.randomUUID());
  const params = new URLSearchParams(search);
  const seen = new Set<string>();
  for (const [param, key] of PARAM_KEYS) {
    const value = params.get(param)?.trim();
    if (!value || seen.has(key)) continue;
    seen.add(key);
    store.setItem(key, value.slice(0, MAX_VALUE));
  }
  if (params.has('package')) store.setItem(STORAGE_KEYS.packageFlag, '1');
  return readTracking(store, cookies);
}

/** The typed view of the stored state and cookies (docs/rules.md#entities). Empty strings and missing values read as undefined. */
export type TrackingState = {
  eventToken: string | undefined;
  keyword: string | undefined;
  channel: string;
  globalMethod: string | undefined;
  hmci: string | undefined;
  gclid: string | undefined;
  wbraid: string | undefined;
  uuid: string | undefined;
  isPackage: boolean;
  lang: string | undefined;
  /** The cookie choice: true accepted, false declined, undefined not asked yet. */
  acceptCookie: boolean | undefined;
  websiteType: number;
  gaCid: string | undefined;
};

/** Reads the state from `store` and the page's cookies `cookie` (name → decoded value, lib/browser-cookies.ts). */
export function readTracking(store: KeyValueStore, cookie: Record<string, string | undefined> = {}): TrackingState {
  const get = (key: string) => store.getItem(key) || undefined;
  const token = get(STORAGE_KEYS.eventToken);
  return {
    eventToken: isEventToken(token) ? token : undefined,
    keyword: get(STORAGE_KEYS.keyword),
    channel: get(STORAGE_KEYS.channel) ?? DEFAULT_CHANNEL,
    globalMethod: get(STORAGE_KEYS.globalMethod),
    hmci: get(STORAGE_KEYS.hmci),
    gclid: get(STORAGE_KEYS.gclid),
    wbraid: get(STORAGE_KEYS.wbraid),
    uuid: get(STORAGE_KEYS.uuid),
    isPackage: get(STORAGE_KEYS.packageFlag) === '1',
    lang: cookie.lang || undefined,
    acceptCookie: cookie.acceptCookie === '1' ? true : cookie.acceptCookie === '0' ? false : undefined,
    websiteType: WEBSITE_TYPE,
    gaCid: gaClientId(cookie._ga),
  };
}

/**
 * The Google Analytics client id from the `_ga` cookie: `GA1.1.1234567890.1699999999` → `1234567890.1699999999`
 * (the last two dot-separated numbers). Anything else → undefined.
 */
export function gaClientId(ga: string | undefined): string | undefined {
  const match = ga ? /^GA\d+\.\d+\.(\d+\.\d+)$/.exec(ga) : null;
  return match?.[1];
}

/** Local storage, or an in-memory store when the browser refuses it (private modes, disabled storage). */
export function browserStore(): KeyValueStore {
  try {
    const probe = '__probe__';
    localStorage.setItem(probe, probe);
    localStorage.removeItem(probe);
    return localStorage;
  } catch {
    const memory = ((globalThis as { __trackingMemory?: Map<string, string> }).__trackingMemory ??= new Map());
    return { getItem: (k) => memory.get(k) ?? null, setItem: (k, v) => void memory.set(k, String(v)) };
  }
}

let captured = false;

/**
 * The page's tracking state. The first call of a page view captures the address and sets the essential cookie
 * `website_type` (7, the site id, not tracking), so every API call made afterwards carries the same attribution. The
 * `lang` cookie is written only when the visitor chooses a language (language switcher), never from
 * the page a visitor happened to land on.
 */
export function browserState(): TrackingState {
  const store = browserStore();
  if (!captured) {
    captured = true;
    writePreferenceCookie('website_type', String(WEBSITE_TYPE));
    return captureTracking(location.search, store, readCookies());
  }
  return readTracking(store, readCookies());
}
