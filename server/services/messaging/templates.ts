import 'server-only';
import { formatPhone } from '../../../lib/phone-format';
import { env } from '../../env';
import { localeUrl } from '../../../i18n/routing';
import { pickLanguage, translate, type ApiLanguage } from '../../i18n';

// The e-mails the product sends, rendered in the reader's language from the catalogues (messages/*.json, `Email`): a
// subject, a plain-text body and an HTML body with every parameter escaped (OWASP Cross Site Scripting Prevention
// Cheat Sheet: encode on output). The order e-mails carry the withdrawal line (Directive 2011/83/EU Art. 11a).

/** E-mail templates; their texts live in messages/*.json under `Email` (en-PH uses en). */
export type EmailTemplate =
  | 'order-credentials'
  | 'reset-code'
  | 'password-changed'
  | 'login-locked'
  | 'temporary-password'
  | 'sharing-started'
  | 'sharing-declined'
  | 'sharing-stopped'
  | 'sharing-silent'
  | 'trial-reminder'
  | 'renewal-failed'
  | 'subscription-ended'
  | 'subscription-canceled'
  | 'cancel-link'
  | 'withdraw-link'
  | 'withdrawal-confirmed'
  | 'refund-issued'
  | 'trial-refunded'
  | 'payment-receipt'
  | 'annual-notice'
  | 'contact-message'
  | 'support-reply';

type Params = Record<string, string | number>;

/** Escapes text for HTML (every parameter is escaped; no user input is rendered raw). */
export function escapeHtml(value: string): string {
  return value.replace(
    /[&<>"']/g,
    (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!,
  );
}

/** A receipt's payment line: the wallet, the card by scheme and last four, or a card we know nothing of. */
const paidWith = (p: Params) =>
  p.method === 'wallet' ? 'Email.receiptWallet' : p.card ? 'Email.receiptCard' : 'Email.receiptCardPlain';

const LINES: Record<EmailTemplate, (p: Params) => string[]> = {
  'order-credentials': (p) => [
    'Email.credentialsIntro',
    p.password ? 'Email.credentialsLogin' : 'Email.credentialsExisting',
    ...(p.password ? ['Email.credentialsPassword'] : []),
    // The order e-mail is also the receipt of the trial payment: what, when, how it was paid, how to cancel.
    'Email.credentialsOrder',
    paidWith(p),
    ...(p.refundUnconsented ? ['Email.reminderNoConsent'] : []),
    'Email.receiptCancel',
    p.smsRefused ? 'Email.credentialsSmsRefused' : 'Email.credentialsConsent',
    'Email.credentialsLink',
  ],
  'reset-code': () => ['Email.resetBody'],
  'password-changed': () => ['Email.changedBody'],
  'login-locked': () => ['Email.lockedBody'],
  'temporary-password': () => ['Email.temporaryBody'],
  'sharing-started': () => ['Email.sharingBody'],
  'sharing-declined': () => ['Email.declinedBody'],
  'sharing-stopped': () => ['Email.stoppedBody'],
  'sharing-silent': () => ['Email.silentBody', 'Email.silentWhy'],
  'trial-reminder': (p) => [
    'Email.reminderBody',
    ...(p.refundUnconsented ? ['Email.reminderNoConsent'] : []),
    'Email.howToCancel',
  ],
  'renewal-failed': () => ['Email.renewalFailedBody', 'Email.howToCancel'],
  'subscription-ended': () => ['Email.endedBody'],
  'subscription-canceled': () => ['Email.canceledBody'],
  'cancel-link': () => ['Email.cancelLinkBody'],
  'withdraw-link': () => ['Email.withdrawLinkBody'],
  // The acknowledgement of a withdrawal (Directive 2011/83/EU Art. 11a(3)): the contract, date and time, the refund.
  'withdrawal-confirmed': (p) => [
    'Email.withdrawnBody',
    Number(p.refundMinor) > 0
      ? p.method === 'wallet'
        ? 'Email.withdrawnRefundWallet'
        : 'Email.withdrawnRefundCard'
      : 'Email.withdrawnNoRefund',
    'Email.withdrawnRequests',
  ],
  // A wallet refund goes back to the wallet, whose timing we cannot promise; a card's takes 7 to 10 business days.
  'refund-issued': (p) => [p.method === 'wallet' ? 'Email.refundBodyWallet' : 'Email.refundBody'],
  'trial-refunded': () => ['Email.trialRefundedBody', 'Email.trialRefundedRequests'],
  'payment-receipt': (p) => ['Email.receiptRenewal', paidWith(p), 'Email.receiptCancel'],
  'annual-notice': () => ['Email.annualBody', 'Email.annualCancel'],
  'contact-message': () => ['Email.contactBody'],
  'support-reply': () => ['Email.supportReplyBody'],
};

const SUBJECT: Record<EmailTemplate, string> = {
  'order-credentials': 'Email.credentialsSubject',
  'reset-code': 'Email.resetSubject',
  'password-changed': 'Email.changedSubject',
  'login-locked': 'Email.lockedSubject',
  'temporary-password': 'Email.temporarySubject',
  'sharing-started': 'Email.sharingSubject',
  'sharing-declined': 'Email.declinedSubject',
  'sharing-stopped': 'Email.stoppedSubject',
  'sharing-silent': 'Email.silentSubject',
  'trial-reminder': 'Email.reminderSubject',
  'renewal-failed': 'Email.renewalFailedSubject',
  'subscription-ended': 'Email.endedSubject',
  'subscription-canceled': 'Email.canceledSubject',
  'cancel-link': 'Email.cancelLinkSubject',
  'withdraw-link': 'Email.withdrawLinkSubject',
  'withdrawal-confirmed': 'Email.withdrawnSubject',
  'refund-issued': 'Email.refundSubject',
  'trial-refunded': 'Email.trialRefundedSubject',
  'payment-receipt': 'Email.receiptSubject',
  'annual-notice': 'Email.annualSubject',
  'contact-message': 'Email.contactSubject',
  'support-reply': 'Email.supportReplySubject',
};

/**
 * The e-mails about an order and its charges, which carry the link "Withdraw from contract here" (`Email.withdrawLine`,
 * Directive 2011/83/EU Art. 11a: the withdrawal function is reachable from every order e-mail).
 */
const ORDER_EMAILS: ReadonlySet<string> = new Set([
  'order-credentials',
  'payment-receipt',
  'trial-reminder',
  'annual-notice',
]);

/**
 * A date and time for an e-mail, which cannot know the reader's zone: in UTC, saying so, as the locale
 * writes it: "November 24, 2026 at 2:05 PM UTC", "24 de noviembre de 2026, 14:05 UTC".
 */
export function emailDateTime(date: Date, locale: string): string {
  const written = new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' });
  return `${written.format(date)} UTC`;
}

/**
 * Renders `template` in `locale` with `params`: a subject, a plain-text body and an HTML body in which every
 * parameter is escaped. The product name and support address come from the settings; a `phone` is shown in
 * international format.
 */
export function renderEmail(template: EmailTemplate, locale: string, params: Params) {
  const lang: ApiLanguage = pickLanguage(locale);
  const e = env();
  const all = {
    product: e.NEXT_PUBLIC_PRODUCT_NAME,
    support: e.SUPPORT_EMAIL,
    withdrawLink: localeUrl(e.APP_ORIGIN, locale, '/withdraw/'),
    ...params,
    // Numbers are written for people: +49 1512 3456781, not +4915123456781.
    ...(typeof params.phone === 'string' ? { phone: formatPhone(params.phone) } : {}),
  };
  const keys = [
    'Email.greeting',
    ...LINES[template](params),
    ...(ORDER_EMAILS.has(template) ? ['Email.withdrawLine'] : []),
    'Email.support',
    'Email.signature',
  ];
  const paragraphs = keys.map((key) => translate(lang, key, all));
  const escaped = Object.fromEntries(Object.entries(all).map(([k, v]) => [k, escapeHtml(String(v))]));
  const htmlParagraphs = keys.map(
    (key) =>
      `<p>${translate(lang, key, escaped)
        .replace(/(https?:\/\/[^\s<]+)/g, '<a href="$1">$1</a>')
        .replace(/\n/g, '<br>')}</p>`,
  );
  return {
    subject: translate(lang, SUBJECT[template], all),
    text: paragraphs.join('\n\n'),
    html: `<!doctype html><html lang="${lang}"><body style="font-family:system-ui,sans-serif;line-height:1.5;color:#0f172a">${htmlParagraphs.join('')}</body></html>`,
  };
}
