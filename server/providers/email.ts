import 'server-only';
import nodemailer, { type Transporter } from 'nodemailer';
import { env } from '../env';

/** An e-mail ready to send; `messageId` is its stable RFC 5322 Message-ID (`<id@host>`), the same on every retry. */
export type OutgoingEmail = { to: string; subject: string; text: string; html: string | null; messageId?: string };

/** Sends e-mail; resolves to the provider's message id (null when the provider has none); rejects on failure. */
export type EmailProvider = { name: string; send(message: OutgoingEmail): Promise<string | null> };

/** The `outbox` provider: the row in `outbound_messages` is the delivery (readable at /dev/outbox). */
export const outboxEmailProvider: EmailProvider = { name: 'outbox', send: async () => null };

/**
 * An SMTP provider through nodemailer, for an `smtp://` or `smtps://` URL (with credentials in it if needed). A server
 * that accepts the connection and never answers fails the attempt within seconds: connection 5 s, greeting 5 s,
 * socket inactivity 15 s (issue 16 §6), so a hung mail server cannot hold the workers.
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
  };
}

let configured: EmailProvider | undefined;

/** The provider chosen by EMAIL_PROVIDER (ARCHITECTURE §3). */
export function emailProvider(): EmailProvider {
  const e = env();
  configured ??= e.EMAIL_PROVIDER === 'smtp' ? createSmtpProvider(e.SMTP_URL!, e.EMAIL_FROM) : outboxEmailProvider;
  return configured;
}
