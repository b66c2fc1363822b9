import 'server-only';
import { outboundMessages } from '../../db/schema';
import type { Tx } from '../../db/client';
import { renderEmail, type EmailTemplate } from './templates';

// Writing an e-mail to the outbox, in the transaction of the change that causes it
// (docs/decisions/0005-outbox-with-pg-boss.md): rendered at once, delivered after the commit by the outbox job
// (./outbox.ts); its secrets kept only until it is handed over (docs/rules.md, "Retention").

/** Parameters that are secrets: kept in the sent text only as long as delivery needs them. */
const SECRET_PARAMS = ['password', 'code'];
/** Templates whose `link` carries a secret token (a single-use cancel link, also in the annual reminder). */
const SECRET_LINKS = new Set<EmailTemplate>(['cancel-link', 'annual-notice']);
/** What stands where a secret was, once the message has been handed over. */
export const REMOVED = '[removed]';

/** An outbox row of channel `push` keeps in `payload` the e-mail to send when no device takes it. */
export type PushFallback = { to: string; template: EmailTemplate; params: Record<string, string> };

/**
 * Writes an e-mail to the outbox inside `tx`, the transaction of the change that causes it (rolled back with it).
 * Rendered now, in `locale`; delivered later by the outbox job. When a parameter is a secret (a temporary password, a
 * reset code, a cancel link), the row also keeps a rendering without it (`redacted`) that replaces the texts once the
 * message is handed to the provider (./outbox.ts). Returns the row id (enqueue it after the commit).
 */
export async function queueEmail(
  tx: Tx,
  message: { to: string; template: EmailTemplate; locale: string; params: Record<string, string | number> },
): Promise<string> {
  const rendered = renderEmail(message.template, message.locale, message.params);
  const secrets = Object.keys(message.params).filter(
    (key) => SECRET_PARAMS.includes(key) || (key === 'link' && SECRET_LINKS.has(message.template)),
  );
  // The payload is kept for support; secrets are never stored in it.
  const payload = Object.fromEntries(Object.entries(message.params).filter(([key]) => !secrets.includes(key)));
  const redacted = secrets.length
    ? renderEmail(message.template, message.locale, {
        ...message.params,
        ...Object.fromEntries(secrets.map((key) => [key, REMOVED])),
      })
    : null;
  const [row] = await tx
    .insert(outboundMessages)
    .values({
      redacted: redacted && { body: redacted.text, html: redacted.html },
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
