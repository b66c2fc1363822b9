/** The safety centre's payloads are in lib/contracts/safety.ts (docs/decisions/0010-one-contract-per-payload.md). */

/** What the owner can do from the safety centre (`POST /api_f/v1/safety/actions`). */
export const SAFETY_ACTIONS = ['stop_all', 'block', 'unblock', 'block_all', 'unblock_all', 'erase', 'report'] as const;
export type SafetyAction = (typeof SAFETY_ACTIONS)[number];

/** The neutral page the quick exit leaves to (a search engine's home page: nothing about safety or location). */
export const QUICK_EXIT_URL = 'https://www.google.com/';
