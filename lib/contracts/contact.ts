import { z } from 'zod';
import { LIMITS } from '../validation/schemas';
import { emailBody, localeBody } from './fields';

/**
 * `POST /other/contact`, the contact form (/contact-us): the sender's name, e-mail and message and the page's language,
 * trimmed; a refusal answers 422 with the `Validation.*` key (server/api/routes/contact.ts). Lengths are LIMITS'
 * (lib/validation/schemas.ts), which the form checks too. docs/decisions/0010-one-contract-per-payload.md.
 */
export const contactBody = z.object({
  name: z.string('Validation.nameRequired').trim().min(1, 'Validation.nameRequired').max(LIMITS.nameMax),
  email: emailBody,
  message: z
    .string('Validation.messageRequired')
    .trim()
    .min(1, 'Validation.messageRequired')
    .max(LIMITS.messageMax, 'Validation.messageTooLong'),
  locale: localeBody,
});
