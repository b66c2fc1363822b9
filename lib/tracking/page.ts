import { isLandingPath, splitLocale } from '../routing/rules';
import { detectWebp } from './device';
import { logEvent, sendAdEvent, startEventService, trackClick } from './events';
import { helpChatAdapter } from './help-chat';
import { readUserInfo } from '../user-info';
import { browserState, browserStore } from './state';

let started = false;

/**
 * Everything a page view starts once the page is interactive, loaded as its own chunk so it costs the first
 * load nothing: captures the address into the tracking state, detects WebP once, logs `landing_view` on the
 * landing pages (docs/rules.md#routes) and `page_view` elsewhere (with an ad `PageView` on landing pages, sent only after
 * cookies are accepted), records clicks on elements marked `data-btn-id`, starts the third-party event service
 * when allowed, and the help chat last.
 */
export function startPageTracking(): void {
  if (started) return;
  started = true;
  browserState();
  detectWebp(browserStore());
  const landing = isLandingPath(splitLocale(location.pathname).rest);
  void logEvent(landing ? 'landing_view' : 'page_view');
  if (landing) sendAdEvent('PageView');
  startEventService();
  document.addEventListener('click', (event) => {
    const target = (event.target as Element | null)?.closest?.('[data-btn-id]');
    const id = target?.getAttribute('data-btn-id');
    if (id) void trackClick(id);
  });
  void startHelpChat();
}

/** The help chat of NEXT_PUBLIC_HELP_CHAT, told who is visiting; nothing when the setting is `none`. */
async function startHelpChat(): Promise<void> {
  const adapter = helpChatAdapter(process.env.NEXT_PUBLIC_HELP_CHAT, {
    crispWebsiteId: process.env.NEXT_PUBLIC_CRISP_WEBSITE_ID,
  });
  if (!adapter) return;
  adapter.load();
  const email = readUserInfo()?.email;
  if (!email) {
    adapter.identify({ signedIn: false });
    return;
  }
  try {
    const locale = document.documentElement.lang || 'en';
    // The axios client only for a signed-in visitor with a chat: the tracking chunk itself stays without it.
    const { browserApi } = await import('../api/browser');
    const property = await browserApi(locale, 'network').call('GET /other/user/property');
    adapter.identify({ signedIn: true, email, property });
  } catch (error) {
    // A stale userInfo cookie (session ended): the visitor is anonymous to the chat.
    console.error('[help chat]', error);
    adapter.identify({ signedIn: false });
  }
}

/**
 * The view of a page reached by client-side navigation (the site's `Link`, components/ui/link.tsx), logged as the
 * first page's is by startPageTracking: `landing_view` on the landing pages (docs/rules.md#routes, with an ad
 * `PageView`), `page_view` elsewhere, for the address now shown. Nothing until startPageTracking has run (the first
 * page's view is logged there, once).
 */
export function trackPageView(): void {
  if (!started) return;
  const landing = isLandingPath(splitLocale(location.pathname).rest);
  void logEvent(landing ? 'landing_view' : 'page_view');
  if (landing) sendAdEvent('PageView');
}
