// Messaging: what the product sends and what becomes of it (docs/decisions/0005-outbox-with-pg-boss.md, docs/rules.md
// "SMS", "Retention" and "States"). The outbox of e-mails, SMS and push notifications, written in the transaction of
// the change that causes it and delivered by the job worker with retries, a lease and recovery after a provider outage;
// the e-mail templates; the SMS status callbacks and the opt-out list (Twilio's status and opt-out docs); web push to
// the buyer's devices (W3C Push API, RFC 8291, RFC 8292). A message's delivery (claim, lease, retries, outcome), the
// push subscriptions and keys and every call to the e-mail, SMS and push providers are in this folder; what other
// domains still write of `outbound_messages` and `opt_outs` themselves is listed in
// docs/decisions/0020-domain-folders.md.
//
// This file is the one entry the rest of the app imports:
// - writing: ./outbox-queue.ts (an e-mail in the caller's transaction), ./templates.ts (rendering);
// - delivering: ./outbox.ts (one row through its provider, a push with its e-mail fallback, redaction of secrets),
//   ./outbox-schedule.ts (the retry schedule, the lease, the rows due), ./outbox-recovery.ts (after an outage);
// - after delivery: ./sms-status.ts (status callbacks, the poll, inbound STOP), ./opt-outs.ts;
// - push: ./web-push.ts (keys, subscriptions, the endpoint check, the fan-out);
// - reading: ./outbox-reads.ts (the dev view, the account's undelivered e-mails).
// The retry schedule's rules (isLastAttempt, nextAttemptAfter…) are exported so that tests check them where they are
// defined.
export { REMOVED, queueEmail, type PushFallback } from './outbox-queue';
export { emailDateTime, escapeHtml, renderEmail, type EmailTemplate } from './templates';
export { PUSH_ATTEMPTS, deliverOutboxMessage, messageIdOf, redactHandedOver, type SmsSentStep } from './outbox';
export {
  DELIVERY_HORIZON_MS,
  LEASE_MS,
  MAX_DELIVERY_ATTEMPTS,
  RETRY_JITTER,
  RETRY_SCHEDULE_MS,
  dueOutboxIds,
  firstAttemptIds,
  isLastAttempt,
  nextAttemptAfter,
  retryTimesOf,
} from './outbox-schedule';
export {
  PROBE_INTERVAL_MS,
  ProviderHealth,
  probeWaitingProviders,
  wakeWaiting,
  waitingChannels,
  type Channel,
  type ProbeOutcome,
  type ProviderState,
} from './outbox-recovery';
export { STATUS_CHECK_AFTER_MS, applyInboundSms, applyTwilioStatus, pollSmsStatuses } from './sms-status';
export { optOut } from './opt-outs';
export {
  MAX_PUSH_DEVICES,
  PushEndpointError,
  PushEndpointTakenError,
  checkPushEndpoint,
  hasPushEndpoint,
  loadVapidKeys,
  pushDeviceCount,
  pushEndpointAllowed,
  pushToUser,
  subscribePush,
  unsubscribePush,
  vapidKeys,
  type PushFanOut,
} from './web-push';
export { latestOutboundMessages, undeliveredEmailsTo } from './outbox-reads';
