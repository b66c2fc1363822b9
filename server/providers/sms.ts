import 'server-only';
import twilio from 'twilio';
import { env } from '../env';

/** An SMS ready to send; `statusCallback` is where the provider reports delivery (Twilio status callbacks). */
export type OutgoingSms = { to: string; body: string; statusCallback?: string };

/**
 * Sends SMS; resolves to the provider's message id (null when it has none); rejects on failure. `status`, when the
 * provider has one, reads a sent message's current status in the provider's words (e.g. Twilio `delivered`).
 */
export type SmsProvider = {
  name: string;
  send(message: OutgoingSms): Promise<string | null>;
  status?(messageId: string): Promise<string>;
};

/** The `outbox` provider: the row in `outbound_messages` is the delivery (readable at /dev/outbox). */
export const outboxSmsProvider: SmsProvider = { name: 'outbox', send: async () => null };

/**
 * Twilio Programmable Messaging through the official SDK; `from` is a Messaging Service SID or an E.164 number. Each
 * HTTP call gives up after 10 s (issue 16 §6), so a stalled API cannot hold the workers.
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
  };
}

let configured: SmsProvider | undefined;

/** The provider chosen by SMS_PROVIDER (ARCHITECTURE §3). */
export function smsProvider(): SmsProvider {
  const e = env();
  configured ??=
    e.SMS_PROVIDER === 'twilio'
      ? createTwilioProvider(e.TWILIO_ACCOUNT_SID!, e.TWILIO_AUTH_TOKEN!, e.TWILIO_FROM!)
      : outboxSmsProvider;
  return configured;
}
