import 'server-only';
import { outboundMessages } from '../db/schema';
import type { Tx } from '../db/client';
import { renderEmail, type EmailTemplate } from './templates';

/**
 * Writes an e-mail to the outbox inside `tx`, the transaction of the change that causes it (rolled back with it).
 * Rendered now, in `locale`; delivered later by the outbox job. Returns the row id (enqueue it after the commit).
 */
export async function queueEmail(
  tx: Tx,
  message: { to: string; template: EmailTemplate; locale: string; params: Record<string, string | number> },
): Promise<string> {
  const rendered = renderEmail(message.template, message.locale, message.params);
  // The payload is kept for support; secrets (passwords, codes) are never stored in it.
  const payload = Object.fromEntries(
    Object.entries(message.params).filter(([key]) => key !== 'password' && key !== 'code'),
  );
  const [row] = await tx
    .insert(outboundMessages)
    .values({
      channel: 'email',
      recipient: message.to,
      template: message.template,
      locale: message.locale,
      payload,
      subject: rendered.subject,
      body: rendered.text,
      html: rendered.html,
    })
    .returning({ id: outboundMessages.id });
  return row.id;
}
