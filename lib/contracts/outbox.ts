import { z } from 'zod';

/**
 * `GET /dev/outbox` (development only, while DEV_OUTBOX allows; 404 otherwise): the newest 100 e-mails and SMS the outbox
 * providers stored, newest first, with their text, so a developer can follow a link a message carries
 * (components/dashboard/outbox-list.tsx). Times are ISO 8601. docs/decisions/0010-one-contract-per-payload.md.
 */
export const outboxMessagesSchema = z.array(
  z.object({
    id: z.string(),
    channel: z.string(),
    recipient: z.string(),
    subject: z.string().nullable(),
    body: z.string(),
    status: z.string(),
    createdAt: z.string(),
  }),
);
export type OutboxMessage = z.infer<typeof outboxMessagesSchema>[number];
