import type { BrowserEvent } from './funnel';

/**
 * Logs a funnel event from a component without putting the trackers in its bundle: the tracking chunk is loaded on
 * the first call. `adEvent` (a Meta standard event name such as `Lead` or `InitiateCheckout`) is also sent as an ad
 * conversion, which waits for the cookie choice (lib/tracking/events). Never throws; errors go to the console.
 */
export function track(event: BrowserEvent, adEvent?: string): void {
  import('./events')
    .then((m) => {
      void m.logEvent(event);
      if (adEvent) m.sendAdEvent(adEvent);
    })
    .catch((error: unknown) => console.error('[track]', error));
}

/** Sends only an ad conversion event (e.g. `Purchase` on the payment-success page), after the cookie choice. */
export function trackAd(adEvent: string): void {
  import('./events').then((m) => m.sendAdEvent(adEvent)).catch((error: unknown) => console.error('[track]', error));
}
