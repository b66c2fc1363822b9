import 'server-only';
import nodemailer, { type Transporter } from 'nodemailer';
import { env } from '../env';

/** An e-mail ready to send. */
export type OutgoingEmail = { to: string; subject: string; text: string; html: string | null };

/** Sends e-mail; resolves to the provider's message id (null when the provider has none); rejects on failure. */
export type EmailProvider = { name: string; send(message: OutgoingEmail): Promise<string | null> };

/** The `outbox` provider: the row in `outbound_messages` is the delivery (readable at /dev/outbox). */
export const outboxEmailProvider: EmailProvider = { name: 'outbox', send: async () => null };

/** An SMTP provider through nodemailer, for an `smtp://` or `smtps://` URL (with credentials in it if needed). */
export function createSmtpProvider(url: string, from: string): EmailProvider {
  const transport: Transporter = nodemailer.createTransport(url);
  return {
    name: 'smtp',
    async send(message) {
      const info = await transport.sendMail({
        from,
        to: message.to,
        subject: message.subject,
        text: message.text,
        html: message.html ?? undefined,
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
