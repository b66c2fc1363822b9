import { z } from 'zod';
import { emailBody } from './fields';

/**
 * The account's contract (`/admin/userSession*`, `/admin/user/password`, `/admin/user/undeliveredEmails`): each request
 * body and answer once, as zod schemas. The routes validate and document with them (server/api/routes/accounts.ts)
 * and build their answers to these types; the pages read the same types (components/account).
 * docs/decisions/0010-one-contract-per-payload.md. The forms check the same fields with zod/mini
 * (lib/validation/schemas.ts), whose message keys these share.
 */

/**
 * A password as a body carries it; its policy (length, spaces, common list) is the service's
 * (server/services/accounts/passwords.ts).
 */
const password = z
  .string('Validation.passwordRequired')
  .min(1, 'Validation.passwordRequired')
  .max(1024, 'Validation.passwordLength');

/** The 6-digit reset code e-mailed by `GET /admin/userSession/forgetPassword/{email}`. */
const resetCode = z
  .string('Validation.codeRequired')
  .trim()
  .min(1, 'Validation.codeRequired')
  .regex(/^\d+$/, 'Validation.codeNumeric')
  .length(6, 'Validation.codeLength');

/** `POST /admin/userSession`: sign in. */
export const loginBody = z.object({ email: emailBody, password });

/** `PUT /admin/user/password`: `password` (the current one) may be left out in a restricted session. */
export const changePasswordBody = z.object({ password: password.optional(), newPassword: password });

/** `PUT /admin/userSession/forgetPassword/{email}`: the e-mailed code and the new password. */
export const resetPasswordBody = z.object({ code: resetCode, newPassword: password });

/** The path of the calls that name an account by its e-mail. */
export const emailParams = z.object({ email: emailBody });

/** The signed-in user (`POST /admin/userSession`, `GET /admin/userSession/current`). */
export const userInfoSchema = z.object({
  id: z.string(),
  email: z.string(),
  paymentCount: z.number().int(),
  mustChangePassword: z
    .boolean()
    .meta({ description: 'a session opened with the temporary password: it may only choose a password' }),
  choosesFirstPassword: z.boolean().meta({
    description:
      'the session the paying of the account opened, its temporary password never replaced: the first password is chosen without the temporary one',
  }),
});
export type UserInfo = z.infer<typeof userInfoSchema>;

/** An e-mail to the account's address that has not arrived (`GET /admin/user/undeliveredEmails`); never its text. */
export const undeliveredEmailSchema = z.object({
  subject: z.string().nullable(),
  createdAt: z.string(),
  status: z.enum(['queued', 'failed']).meta({ description: 'queued: tried again at nextAttemptAt; failed: gave up' }),
  nextAttemptAt: z.string().nullable(),
});
export type UndeliveredEmail = z.infer<typeof undeliveredEmailSchema>;

/** `GET /admin/user/undeliveredEmails`: the account's undelivered e-mails, newest first. */
export const undeliveredEmailsSchema = z.array(undeliveredEmailSchema);

/**
 * The answer of a call whose news is its envelope's `msg` alone (signing out, a password changed, a reset code sent):
 * `obj` is null; read `msg` with the client's `whole` (lib/api/client.ts).
 */
export const messageOnlySchema = z.null();

/** `GET /portal/user/checkEmail/{email}`: whether the address has an account. */
export const registeredSchema = z.object({ registered: z.boolean() });
