import 'server-only';
import twilio from 'twilio';
import { env } from '../env';

/** An SMS ready to send; `statusCallback` is where the provider reports delivery (Twilio status callbacks). */
export type OutgoingSms = { to: string; body: string; statusCallback?: string };

/**
 * Sends SMS; resolves to the provider's message id (null when it has none); rejects on failure. `status`, when the
 * provider has one, reads a sent message's current status in the provider's words (e.g. Twilio `delivered`).
 * `probe` and `isOutage` serve the outbox's recovery (services/messaging/outbox-recovery.ts), as for e-mail providers:
 * a light check that the provider answers, and whether an error of `send` means the provider did not answer or cannot
 * be used at all rather than refusing this one message.
 */
export type SmsProvider = {
  name: string;
  send(message: OutgoingSms): Promise<string | null>;
  status?(messageId: string): Promise<string>;
  probe?(): Promise<void>;
  isOutage?(error: unknown): boolean;
};

/**
 * The `outbox` provider: the row in `outbound_messages` is the delivery (readable at /dev/outbox). It answers
 * whenever the database does, so its probe always succeeds.
 */
export const outboxSmsProvider: SmsProvider = { name: 'outbox', send: async () => null, probe: async () => undefined };

/**
 * Whether an error of the Twilio SDK means Twilio is out of service for every message rather than refusing this one:
 * no HTTP answer at all (a network error: the SDK's HTTP client sets a string `code` such as `ECONNREFUSED`,
 * `ETIMEDOUT` or `ECONNABORTED`, and no `status`), a 5xx, 401/403 (credentials; every message would fail) or 429 (rate
 * limited). Other 4xx answers (Twilio `RestException` with its error `code`, e.g. 21211 invalid number) concern the
 * message. Status meanings: https://www.twilio.com/docs/usage/requests-to-twilio and RFC 9110 §15.
 */
export function isTwilioOutage(error: unknown): boolean {
  const { status, code } = (error ?? {}) as { status?: unknown; code?: unknown };
  if (typeof status === 'number') return status >= 500 || status === 401 || status === 403 || status === 429;
  return typeof code === 'string';
}

/**
 * Twilio Programmable Messaging through the official SDK; `from` is a Messaging Service SID or an E.164 number. Each
 * HTTP call gives up after 10 s, so a stalled API cannot hold the workers. Its probe reads the account resource
 * (`GET /2010-04-01/Accounts/{sid}.json`): it reaches the API with the configured credentials, sends nothing and
 * costs nothing.
 */
export function createTwilioProvider(accountSid: string, authToken: string, from: string): SmsProvider {
  const client = twilio(accountSid, authToken, { timeout: 10_000 });
  return {
    name: 'twilio',
    async send({ to, body, statusCallback }) {
      const sender = from.startsWith('MG') ? { messagingServiceSid: from } : { from };
      const message = await client.messages.create({ to, body, statusCallback, ...sender });
      return message.sid;
    },
    async status(sid) {
      return (await client.messages(sid).fetch()).status;
    },
    async probe() {
      await client.api.v2010.account.fetch();
    },
    isOutage: isTwilioOutage,
  };
}

let configured: SmsProvider | undefined;

/** The provider chosen by SMS_PROVIDER (docs/rules.md#runtime). */
export function smsProvider(): SmsProvider {
  const e = env();
  configured ??=
    e.SMS_PROVIDER === 'twilio'
      ? createTwilioProvider(e.TWILIO_ACCOUNT_SID!, e.TWILIO_AUTH_TOKEN!, e.TWILIO_FROM!)
      : outboxSmsProvider;
  return configured;
}
