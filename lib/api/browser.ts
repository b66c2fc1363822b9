import { noteUserInfoChange } from '../user-info';
import { browserHeaders, browserTracking } from './browser-fields';
import { createApiClient, type ApiClient } from './client';
import { localePath } from '../../i18n/routing';

const clients = new Map<string, ApiClient>();

/**
 * The page's API client for `locale` (one per language, created on first use). The session cookie travels by
 * itself on same-origin calls; `networkMessage` is the localized 'Network error, please try again later'.
 */
export function browserApi(locale: string, networkMessage: string): ApiClient {
  // One client per language and network message: an island that passes another message gets its own.
  const key = `${locale}\n${networkMessage}`;
  let client = clients.get(key);
  if (!client) {
    client = createApiClient({
      language: locale,
      networkMessage,
      tracking: browserTracking,
      headers: browserHeaders,
      afterResponse: noteUserInfoChange,
    });
    clients.set(key, client);
  }
  return client;
}

/**
 * Loads `path` as a new document. Used after the session changes (sign-in, sign-out): the header is static and
 * every island reads the cookies when it loads, so a client-side navigation would show the old state.
 */
export function fullLoad(path: string): void {
  location.assign(path);
}

/**
 * Signs out (`DELETE /admin/userSession`, which clears the cookies) and loads the home page of `locale`. First, when
 * this browser gets the account's alerts (Web Push, components/dashboard/push-toggle.tsx), it stops: the device is
 * removed from the account and the browser unsubscribed, so a shared computer shows no alert of an account signed out
 * of it. A failure there never keeps the user signed in.
 */
export async function signOut(api: ApiClient, locale: string): Promise<void> {
  await stopPushHere(api).catch(() => {});
  await api.call('DELETE /admin/userSession').catch(() => {});
  fullLoad(localePath(locale, '/'));
}

/** Removes this browser's push subscription from the signed-in account and unsubscribes it (nothing when there is none). */
async function stopPushHere(api: ApiClient): Promise<void> {
  if (!('serviceWorker' in navigator)) return;
  const registration = await navigator.serviceWorker.getRegistration('/');
  const subscription = await registration?.pushManager?.getSubscription();
  if (!subscription) return;
  await api.call('DELETE /push/subscriptions', { query: { endpoint: subscription.endpoint } });
  await subscription.unsubscribe();
}
