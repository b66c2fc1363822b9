/**
 * The location-request state machine: the one table of a request's states, the events that move it and what each
 * state means for the owner and the buyer. Pure (no database, no clock), shared by the server (which applies each
 * event as one conditional UPDATE, server/services/locate/request-transitions.ts), the API schemas and the pages.
 *
 * ```
 *  queued ──sms_accepted──▶ sms_sent ──link_opened──▶ opened ──shared──▶ sharing ◀──page_visible── paused
 *    │ └──────────────link_opened──────────────────────▲  │                │ ──page_hidden──▶ ▲  │
 *    └── link_expired / declined (any open state)         │                ├── stopped_by_owner / window_ended ─▶ stopped
 *                                                          └──── shared ◀──┘ (from stopped: share again)
 *  reported: from every state but withdrawn · withdrawn: from every state still able to share, when the buyer's
 *  subscription ends
 * ```
 *
 * Rules it encodes (docs/request-states.md tells why):
 * - A position is accepted only in `sharing` or `paused` (ARCHITECTURE "location request": a position is accepted
 *   only while the owner shares; `paused` is the same share with the owner's page hidden, and a fix resumes it).
 * - The owner may share again after a stop, never after a decline, a report, the link's expiry or a withdrawal.
 * - A report is accepted in every state (an owner may report a request they already declined) except `withdrawn`,
 *   where it still records the report and puts the number on the opt-out list without changing the state.
 * - `sms_accepted` only moves `queued`: a provider's late answer never takes back an opened link.
 */

import { nextState, type Transition } from './state-machine';

/** Every state a location request can be in, in the order of a request's life. */
export const REQUEST_STATES = [
  'queued',
  'sms_sent',
  'opened',
  'sharing',
  'paused',
  'stopped',
  'declined',
  'reported',
  'expired',
  'withdrawn',
] as const;

export type RequestState = (typeof REQUEST_STATES)[number];

/** Before the owner's first answer: the consent link is open and the owner may share or decline. */
export const OPEN_STATES = ['queued', 'sms_sent', 'opened'] as const satisfies readonly RequestState[];

/** A share is running: the window is open and positions are accepted. */
export const LIVE_STATES = ['sharing', 'paused'] as const satisfies readonly RequestState[];

/** No event but a report can move these; the retention rules count their age from the last change. */
export const FINAL_STATES = ['declined', 'reported', 'expired', 'withdrawn'] as const satisfies readonly RequestState[];

/** Ended states whose positions the retention sweep deletes after POSITION_RETENTION_DAYS. */
export const ENDED_STATES = ['stopped', ...FINAL_STATES] as const satisfies readonly RequestState[];

/** What can happen to a request. */
export const REQUEST_EVENTS = [
  'sms_accepted',
  'link_opened',
  'shared',
  'page_hidden',
  'page_visible',
  'stopped_by_owner',
  'window_ended',
  'declined',
  'reported',
  'link_expired',
  'withdrawn',
] as const;

export type RequestEvent = (typeof REQUEST_EVENTS)[number];

/** One row of the table (lib/state-machine.ts). */
export type RequestTransition = Transition<RequestState>;

/**
 * The transition table. An event taken in a state not listed in its `from` changes nothing (the caller decides
 * whether that is an error, see `refusal`).
 */
export const TRANSITIONS: Readonly<Record<RequestEvent, RequestTransition>> = {
  /** The SMS provider took the consent SMS. */
  sms_accepted: { from: ['queued'], to: 'sms_sent' },
  /** The owner opened the consent link (first view of the page). */
  link_opened: { from: ['queued', 'sms_sent'], to: 'opened' },
  /** The owner chose a duration and the browser gave a first fix; or shares again after a stop. */
  shared: { from: [...OPEN_STATES, 'stopped'], to: 'sharing' },
  /** The owner's page went hidden (phone locked, tab switched, page closed) during a share. */
  page_hidden: { from: ['sharing'], to: 'paused' },
  /** The owner's page is visible again, or a fix arrived, during a paused share. */
  page_visible: { from: ['paused'], to: 'sharing' },
  /** The owner tapped Stop sharing. */
  stopped_by_owner: { from: [...LIVE_STATES], to: 'stopped' },
  /** The duration the owner chose ran out. */
  window_ended: { from: [...LIVE_STATES], to: 'stopped' },
  /** The owner tapped Decline. */
  declined: { from: [...OPEN_STATES], to: 'declined' },
  /** The owner reported the request as abuse (the number goes on the opt-out list). */
  reported: {
    from: ['queued', 'sms_sent', 'opened', 'sharing', 'paused', 'stopped', 'declined', 'expired'],
    to: 'reported',
  },
  /** The link's time (CONSENT_LINK_TTL_HOURS) ran out before any answer. */
  link_expired: { from: [...OPEN_STATES], to: 'expired' },
  /** The buyer's subscription ended (refund, withdrawal, end of period, failed renewals): the request ends with it. */
  withdrawn: { from: [...OPEN_STATES, ...LIVE_STATES, 'stopped'], to: 'withdrawn' },
};

/** The state `event` leads to from `state`, or null when the table does not allow it there. */
export function next(state: RequestState, event: RequestEvent): RequestState | null {
  return nextState(TRANSITIONS, state, event);
}

/** Whether a share is running in `state` (positions accepted). */
export const isLive = (state: RequestState): boolean => (LIVE_STATES as readonly string[]).includes(state);

/** Whether the consent link still waits for the owner's first answer in `state`. */
export const isOpen = (state: RequestState): boolean => (OPEN_STATES as readonly string[]).includes(state);

/**
 * Why the owner's answer `event` is refused in `state`, in the consent API's words: `expired` / `withdrawn` (the link
 * no longer works), `answered` (already declined or reported), `not_sharing` (a stop with no share running). Null when
 * the event is allowed, is a repeat of the answer that led to `state` (the same tap sent twice is not an error), or is
 * a share while one runs (it resumes a paused share).
 */
export function refusal(
  state: RequestState,
  event: 'shared' | 'declined' | 'stopped_by_owner',
): 'expired' | 'withdrawn' | 'answered' | 'not_sharing' | null {
  if (next(state, event) !== null || TRANSITIONS[event].to === state) return null;
  if (state === 'expired' || state === 'withdrawn') return state;
  if (isLive(state) && event === 'shared') return null;
  if (event === 'stopped_by_owner') return 'not_sharing';
  return 'answered';
}

/**
 * The states the buyer sees. A report is never shown to the buyer as such — an abuser told of a report may turn on
 * the person who made it (IETF DULT threat model, "Detecting Unwanted Location Trackers") — so `reported` reads as
 * `declined` before any share and `stopped` after one; `withdrawn` reads as `expired` with the `withdrawn` flag.
 * Written out rather than derived from REQUEST_STATES: a new state fails the build in `buyerState` until someone
 * decides whether the buyer may see it.
 */
export const BUYER_STATES = [
  'queued',
  'sms_sent',
  'opened',
  'sharing',
  'paused',
  'stopped',
  'declined',
  'expired',
] as const satisfies readonly RequestState[];

export type BuyerState = (typeof BUYER_STATES)[number];

/** What the buyer is shown for a request in `state` that shared at least once when `everShared`. */
export function buyerState(state: RequestState, everShared: boolean): BuyerState {
  if (state === 'reported') return everShared ? 'stopped' : 'declined';
  if (state === 'withdrawn') return 'expired';
  return state;
}
