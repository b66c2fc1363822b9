// Locate: the life of a location request, the owner's consent and the buyer's live view (docs/rules.md "States",
// "Live location" and "SMS", docs/features.md, docs/decisions/0019-live-broker.md). A request from its creation and
// its consent SMS to its end, its machine (lib/request-machine.ts) applied as conditional updates; the owner's answers
// on the consent page, their positions and signals, more time and the approximate share; the protections of the
// phone's owner (who asks, the SMS caps and cool-down, the owner's block, the review hold); what the buyer is told and
// sees: alerts, the notifications count, the trace and the live stream with its broker and hub (PostgreSQL
// LISTEN/NOTIFY, Redis Streams), the named places on the map. Every write of `location_requests`, `positions`,
// `consents` and `requester_marks` is in this folder, save what the safety centre does at the owner's word, through
// this entry (docs/decisions/0020-domain-folders.md).
//
// This file is the one entry the rest of the app imports:
// - requests: ./requests.ts (creating one, a new consent link, withdrawal), ./buyer-access.ts (access and the quota),
//   ./consent-sms-outbox.ts (the consent SMS written under the guards' lock), ./request-transitions.ts (the machine
//   applied, the settling by the clock, the consent SMS's step that the outbox is handed);
// - consent: ./consent.ts (the owner's page and answers), ./consent-share.ts (a Share recorded), ./consent-sms.ts (the
//   SMS's text and link), ./sms-guards.ts (whether a consent SMS may go), ./requester-marks.ts (who asks, beyond the
//   account);
// - the owner's signals: ./owner-signals.ts (positions, presence), ./more-time.ts, ./share-precision.ts, ./watchers.ts
//   (fixes while a map is open, "Refresh now");
// - the buyer's side: ./buyer-side.ts (the list, the trace, the map views, the maintenance job), ./notifications.ts,
//   ./buyer-alerts.ts, ./places.ts (the nearest named place and the map's labels);
// - live: ./live-broker.ts (announcing positions), ./live-hub.ts (hearing them in each process; what it hears:
//   ./live-notices.ts), ./live-redis.ts (the Redis engine's reader; its streams and connections:
//   ./live-redis-wire.ts), ./live-streams.ts (the buyer's server-sent events, one request's or the people map's:
//   ./people.ts), ./live-open.ts (opening one), ./live-slots.ts (the ceilings),
//   ./live-events.ts (the events' text), ./live-reads.ts (their reads of what was announced, gathered),
//   ./open-streams.ts (this process's registry of them).
// The channel's name and the end of sessions that accounts announces are services/live-channel.ts, outside the folder.
// Pure rules and constants (the alerts, the stream caps, the SMS texts) are exported so that tests check them where
// they are defined.
export {
  MASKED_CODE,
  createLocationRequest,
  quotaOf,
  refusalError,
  renewConsentLink,
  requestLocation,
  withdrawRequests,
} from './requests';
export { applyEvent, applyEventWhere, consentSmsSent, settleByClock } from './request-transitions';
export { answerConsent, consentView, type AnswerResult } from './consent';
export { SMS_TEXTS, consentLink, consentSmsText, localeForCountry, offeredSmsText, smsSegments } from './consent-sms';
export { ownerRefusal, smsRefusal } from './sms-guards';
export { foldName, markRows, onRequesterSide, payerKeyOfCard } from './requester-marks';
export { PRESENCE_SIGNALS, recordPresence, savePosition } from './owner-signals';
export { askMoreTime } from './more-time';
export { WATCH_TTL_MS, askFreshFix } from './watchers';
export { clearPositions, listRequests, requestWithPositions, runLocateMaintenance } from './buyer-side';
export { markNotificationsSeen, notificationsSeenAt, notificationsTotal } from './notifications';
export { SILENCE_ALERT_MS, alertBuyer, alertFor, alertSilentShares, type BuyerAlert } from './buyer-alerts';
export { nearestPlace, placeLabels } from './places';
export { createLiveBroker, liveBroker, type LiveBroker } from './live-broker';
export { LIVE_CHANNEL, LiveHub, liveHub } from './live-hub';
export { DEAF_POLL_MS, type LiveEvent } from './live-notices';
export { redisConnection } from './live-redis-wire';
export { type LiveStream } from './live-streams';
export { RESUME_RETRY_MS, STREAM_LIFETIME_MS } from './live-events';
export { SESSION_CHECK_MS, streams } from './open-streams';
export { STREAM_RETRY_S, streamCaps } from './live-slots';
export { canWatch, openLiveStream, openPeopleStream } from './live-open';
export { peopleOf } from './people';
