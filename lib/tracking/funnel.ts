/**
 * Event codes of the operation log. The first four are sent by the browser; `paid`,
 * `consent_opened` and `shared` are written by the server where it witnesses them (checkout fulfilment, the owner's
 * first view of the consent page, the owner's first share), with the buyer's attribution.
 */
export const FUNNEL = {
  landingView: 'landing_view',
  locateSubmitted: 'locate_submitted',
  numberIdentified: 'number_identified',
  checkoutStarted: 'checkout_started',
  paid: 'paid',
  consentOpened: 'consent_opened',
  shared: 'shared',
} as const;

export type FunnelEvent = (typeof FUNNEL)[keyof typeof FUNNEL];

/** The stages of the funnel report (server/services/events.ts `funnelReport`, the console's funnel tab), in order. */
export const FUNNEL_STAGES = [
  FUNNEL.landingView,
  FUNNEL.locateSubmitted,
  FUNNEL.paid,
  FUNNEL.consentOpened,
  FUNNEL.shared,
] as const;

/** Codes a browser may send to `POST /operationLog` (the server-witnessed ones are refused from browsers). */
export const BROWSER_EVENTS = [
  FUNNEL.landingView,
  FUNNEL.locateSubmitted,
  FUNNEL.numberIdentified,
  FUNNEL.checkoutStarted,
  'page_view',
] as const;

export type BrowserEvent = (typeof BROWSER_EVENTS)[number];
