import { z } from 'zod/mini';
import { codeField, passwordField } from './password';
import { loadPrototypes, ownerNoteProblem, requesterNameProblem, type PrototypeOf } from './requester-name';

/**
 * Form rules shared by the browser forms (zod/mini, small bundle) and the API (whose zod-openapi schemas reuse these
 * patterns and limits). Messages are keys in messages/ (`Validation.*`), translated where they are shown. Phone
 * numbers are only checked for presence and length here (docs/rules.md#validation: ≤ 250 characters); the API parses them with the
 * full numbering plan.
 */
export const LIMITS = { phoneMax: 250, emailMax: 254, zipMax: 15, nameMax: 100, messageMax: 2000 } as const;
export const PATTERNS = {
  cardNumber: /^[\d ]{12,23}$/,
  expiry: /^(0[1-9]|1[0-2]) ?\/ ?(\d{2})$/,
  cvc: /^\d{3,4}$/,
  zip: /^[A-Za-z0-9 -]{1,15}$/,
} as const;

export const emailField = z
  .string({ error: 'Validation.emailRequired' })
  .check(
    z.trim(),
    z.minLength(1, 'Validation.emailRequired'),
    z.maxLength(LIMITS.emailMax, 'Validation.emailInvalid'),
    z.email('Validation.emailInvalid'),
  );

export const phoneField = z
  .string({ error: 'Validation.phoneRequired' })
  .check(z.trim(), z.minLength(1, 'Validation.phoneRequired'), z.maxLength(LIMITS.phoneMax, 'Validation.phoneTooLong'));

/**
 * A check reporting the message key a shared rule gives for a value, if any (the API applies the same rule). The rule's
 * confusables table is loaded on the first check (`loadPrototypes`), so the check is asynchronous: parse these schemas
 * with `parseAsync`/`safeParseAsync` (react-hook-form's zod resolver does by default).
 */
function byRule(problemOf: (value: string, prototypeOf: PrototypeOf) => string | null) {
  return z.superRefine(async (value: string, ctx) => {
    const problem = problemOf(value, await loadPrototypes());
    if (problem) ctx.issues.push({ code: 'custom', message: problem, input: value });
  });
}

/** The requester name the owner is shown, checked by the rule the API applies (`requesterNameProblem`). */
export const requesterNameField = z
  .string({ error: 'Validation.requesterNameRequired' })
  .check(byRule(requesterNameProblem));

/** The optional note to the owner, checked by the rule the API applies (`ownerNoteProblem`). */
export const ownerNoteField = z.string().check(byRule(ownerNoteProblem));

/** The home page's locate box (docs/rules.md#routes): phone, the requester name, e-mail and the accepted terms. */
export const locateBoxSchema = z.object({
  phone: phoneField,
  requesterName: requesterNameField,
  email: emailField,
  terms: z.literal(true, 'Validation.termsRequired'),
});

/**
 * The `Validation` messages the locate box and its pay step can show, as key prefixes (the page hands the browser
 * only these): the fields of `locateBoxSchema` and the note to the owner. tests/client-messages.test.ts
 * checks that every message those rules give is among them.
 */
export const LOCATE_VALIDATION = ['phone', 'email', 'requesterName', 'note', 'terms', 'invalid'] as const;

/** The sandbox card form: number (spaces allowed), expiry MM/YY, CVC, postal code up to 15 characters (docs/rules.md#validation). */
export const cardFormSchema = z.object({
  cardNumber: z.string().check(z.regex(PATTERNS.cardNumber, 'Validation.cardNumber')),
  expiry: z.string().check(z.regex(PATTERNS.expiry, 'Validation.cardExpiry')),
  cvc: z.string().check(z.regex(PATTERNS.cvc, 'Validation.cardCvc')),
  zip: z.string().check(z.trim(), z.regex(PATTERNS.zip, 'Validation.zip')),
});

export type LocateBoxValues = z.infer<typeof locateBoxSchema>;
export type CardFormValues = z.infer<typeof cardFormSchema>;

/** Sign-in (docs/rules.md#validation messages): e-mail and a non-empty password; the policy applies when a password is chosen. */
export const loginSchema = z.object({
  email: emailField,
  password: z.string({ error: 'Validation.passwordRequired' }).check(z.minLength(1, 'Validation.passwordRequired')),
});

/** Forgotten password: the account's e-mail. */
export const forgetSchema = z.object({ email: emailField });

const newPasswordPair = {
  newPassword: passwordField,
  confirm: z.string(),
};
const samePassword = z.refine<{ newPassword: string; confirm: string }>((v) => v.newPassword === v.confirm, {
  message: 'Validation.passwordMismatch',
  path: ['confirm'],
});

/** Reset with a code: e-mail, 6-digit code, the new password twice. */
export const resetSchema = z.object({ email: emailField, code: codeField, ...newPasswordPair }).check(samePassword);

/** Change password: the current one, the new one twice. */
export const changePasswordSchema = z
  .object({
    password: z.string({ error: 'Validation.passwordRequired' }).check(z.minLength(1, 'Validation.passwordRequired')),
    ...newPasswordPair,
  })
  .check(samePassword);

/**
 * Choose a password in a session opened with the temporary password: the new one twice; signing in
 * with the temporary password already proved it.
 */
export const choosePasswordSchema = z.object(newPasswordPair).check(samePassword);

export type LoginValues = z.infer<typeof loginSchema>;
export type ForgetValues = z.infer<typeof forgetSchema>;
export type ResetValues = z.infer<typeof resetSchema>;
export type ChangePasswordValues = z.infer<typeof changePasswordSchema>;

/** The contact form (`/contact-us`): name, e-mail, message of at most 2,000 characters. */
export const contactSchema = z.object({
  name: z
    .string({ error: 'Validation.nameRequired' })
    .check(z.trim(), z.minLength(1, 'Validation.nameRequired'), z.maxLength(LIMITS.nameMax, 'Validation.nameRequired')),
  email: emailField,
  message: z
    .string({ error: 'Validation.messageRequired' })
    .check(
      z.trim(),
      z.minLength(1, 'Validation.messageRequired'),
      z.maxLength(LIMITS.messageMax, 'Validation.messageTooLong'),
    ),
});
export type ContactValues = z.infer<typeof contactSchema>;

/**
 * A phone number carried in a query string (`?phone=`, the pay step's sign-in link back to New request):
 * digits, spaces and `+` only, at most 40 characters; anything else is dropped. '' when absent.
 */
export function phoneFromQuery(value: string | null): string {
  return (value ?? '').replace(/[^\d +]/g, '').slice(0, 40);
}
