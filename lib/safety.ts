import type { RequestState } from './request-machine';

/**
 * One request as the phone owner's safety centre lists it (server/services/safety.ts `safetyOverview`, the page
 * app/[locale]/safety/ and its client parts): times are ISO 8601 UTC strings, durations ms.
 */
export type SafetyRequest = {
  id: string;
  /** Short reference to quote when reporting (`SR-7K4M-2Q`, Crockford base32). */
  reference: string;
  /** Who asks, as the buyer wrote it; null on requests made before it was asked. */
  requesterName: string | null;
  /** The requester's e-mail, masked. */
  requester: string;
  createdAt: string;
  /** The buyer's note to the owner. */
  note: string | null;
  /** The request's state in the request state machine (lib/request-machine.ts). */
  state: RequestState;
  /** How long the number shared its position with this request in all, ms. */
  sharedMs: number;
  /** When the requester opened the map during a share, newest first (at most 50). */
  views: string[];
  /** How many map openings were recorded in all. */
  viewCount: number;
  /** How many positions the requester can still see. */
  positions: number;
  /** When the owner deleted what was shared, or null. */
  erasedAt: string | null;
  /** The owner blocked this requester. */
  blocked: boolean;
};

/** What the owner can do from the safety centre (`POST /api_f/v1/safety/actions`). */
export const SAFETY_ACTIONS = ['stop_all', 'block', 'unblock', 'block_all', 'unblock_all', 'erase', 'report'] as const;
export type SafetyAction = (typeof SAFETY_ACTIONS)[number];

/** The neutral page the quick exit leaves to (a search engine's home page: nothing about safety or location). */
export const QUICK_EXIT_URL = 'https://www.google.com/';
