// The phone owner's safety centre: every request made to one number, who asked, and one tap to stop it all (Apple's
// Safety Check for the single place and the quick exit; IETF DULT threat model for telling the tracked person who
// tracks and giving them an identifier to report; the UK operators' code of practice for location services for the
// located phone staying in control). Everything here is scoped to the one number a session was opened for.
//
// This file is the one entry the rest of the app imports: the centre's sessions and one-time codes (./sessions.ts),
// what it shows (./overview.ts) and what the owner does there (./actions.ts).
export {
  SAFETY_CODE_MS,
  SAFETY_CODE_TRIES,
  canBlockEveryone,
  canUndoBlocks,
  closeSession,
  sendSafetyCode,
  sessionFromConsentCode,
  sessionOf,
  verifySafetyCode,
  type SessionVia,
} from './sessions';
export { safetyOverview, sharedDuration } from './overview';
export {
  blockEveryone,
  blockRequester,
  eraseShared,
  pruneSafety,
  reportRequest,
  stopEverything,
  unblockEveryone,
  unblockRequester,
  type SafetyMeta,
} from './actions';
