import { detectEnv, phoneOs } from '../tracking/device';
import { browserState } from '../tracking/state';

// What this browser adds to every API call, apart from any transport (lib/api/browser.ts's axios client and
// lib/api/browser-fetch.ts both send it).

/**
 * Tracking fields sent with every call (docs/rules.md#api), from the stored browser state (lib/tracking/state), so they
 * survive navigation: os/phoneOs 3 on mobile else 2, gclid, wbraid, keyword (utm_term), apkChannel (default SEO),
 * gaCid from the `_ga` cookie.
 */
export function browserTracking(): Record<string, string | number | undefined> {
  const state = browserState();
  const os = phoneOs(detectEnv(navigator.userAgent, state.isPackage));
  return {
    os,
    phoneOs: os,
    gclid: state.gclid,
    wbraid: state.wbraid,
    keyword: state.keyword,
    apkChannel: state.channel,
    gaCid: state.gaCid,
  };
}

/** The extra header of every call from this browser: `track_id`, the event token (docs/rules.md#entities). */
export function browserHeaders(): Record<string, string | undefined> {
  return { track_id: browserState().eventToken };
}
