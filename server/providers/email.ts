import 'server-only';
import nodemailer, { type Transporter } from 'nodemailer';
import { env } from '../env';

/** An e-mail ready to send; `messageId` is its stable RFC 5322 Message-ID (`<id@host>`), the same on every retry. */
export type OutgoingEmail = { to: string; subject: string; text: string; html: string | null; messageId?: string };

/**
 * Sends e-mail; `send` resolves to the provider's message id (null when the provider has none) and rejects on failure.
 * The optional parts serve the outbox's recovery (services/messaging/outbox-recovery.ts): `probe` is a light check that
 * the provider answers (resolves, or rejects with why not) without sending anything; `isOutage(error)` tells whether an
 * error of `send` means the provider did not answer or cannot be used at all (connection, timeout, authentication), as
 * opposed to the provider answering and refusing this one message.
 */
export type EmailProvider = {
  name: string;
  send(message: OutgoingEmail): Promise<string | null>;
  probe?(): Promise<void>;
  isOutage?(error: unknown): boolean;
};

/**
 * The `outbox` provider: the row in `outbound_messages` is the delivery (readable at /dev/outbox). It answers
 * whenever the database does, so its probe always succeeds.
 */
export const outboxEmailProvider: EmailProvider = {
  name: 'outbox',
  send: async () => null,
  probe: async () => undefined,
};

/**
 * nodemailer error codes (nodemailer `errors.js`) that mean the SMTP server was not reached or could not be used for
 * any message: connection, socket, DNS, timeout, TLS, protocol, proxy and authentication failures. `EENVELOPE` and
 * `EMESSAGE` (the server answered and refused this sender, recipient or message) are not among them.
 */
const SMTP_OUTAGE_CODES = new Set([
  'ECONNECTION',
  'ETIMEDOUT',
  'ESOCKET',
  'EDNS',
  'ETLS',
  'EPROTOCOL',
  'EPROXY',
  'EAUTH',
  'ENOAUTH',
  'EOAUTH2',
]);

/**
 * Whether an error of an SMTP send means the server is out of service rather than refusing this message: a nodemailer
 * code of SMTP_OUTAGE_CODES, a Node.js socket error code (`ECONNREFUSED`, `ECONNRESET`, `EHOSTUNREACH`, `ENOTFOUND`,
 * ...), or reply code 421, "Service not available, closing transmission channel" (RFC 5321 §4.2.3 and §3.8), which a
 * server gives to every message while it cannot take mail.
 */
export function isSmtpOutage(error: unknown): boolean {
  const { code, responseCode } = (error ?? {}) as { code?: unknown; responseCode?: unknown };
  if (responseCode === 421) return true;
  if (typeof code !== 'string') return false;
  return SMTP_OUTAGE_CODES.has(code) || /^E(CONN|HOST|NET|AI_|NOTFOUND|PIPE|ADDR)/.test(code);
}

/**
 * An SMTP provider through nodemailer, for an `smtp://` or `smtps://` URL (with credentials in it if needed). A server
 * that accepts the connection and never answers fails the attempt within seconds: connection 5 s, greeting 5 s,
 * socket inactivity 15 s, so a hung mail server cannot hold the workers. Its probe is nodemailer's `verify()`:
 * connect, EHLO, STARTTLS and AUTH when configured, QUIT; no message is sent.
 */
export function createSmtpProvider(url: string, from: string): EmailProvider {
  const transport: Transporter = nodemailer.createTransport({
    url,
    connectionTimeout: 5_000,
    greetingTimeout: 5_000,
    socketTimeout: 15_000,
  });
  return {
    name: 'smtp',
    async send(message) {
      const info = await transport.sendMail({
        from,
        to: message.to,
        subject: message.subject,
        text: message.text,
        html: message.html ?? undefined,
        messageId: message.messageId,
      });
      return info.messageId ?? null;
    },
    async probe() {
      await transport.verify();
    },
    isOutage: isSmtpOutage,
  };
}

let configured: EmailProvider | undefined;

/** The provider chosen by EMAIL_PROVIDER (docs/rules.md#runtime). */
export function emailProvider(): EmailProvider {
  const e = env();
  configured ??= e.EMAIL_PROVIDER === 'smtp' ? createSmtpProvider(e.SMTP_URL!, e.EMAIL_FROM) : outboxEmailProvider;
  return configured;
}
