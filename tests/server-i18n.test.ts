import { describe, expect, it, vi } from 'vitest';
import { readFileSync } from 'node:fs';
import { routing } from '@/i18n/routing';
import { pickLanguage, translate } from '@/server/i18n';
import { SMS_TEXTS, consentLink, consentSmsText } from '@/server/services/locate';
import { renderEmail, type EmailTemplate } from '@/server/services/messaging';

/**
 * The API's, e-mails' and SMS' texts go through next-intl's ICU formatter (server/i18n.ts): every template renders in
 * every locale with no argument, key or ICU syntax left over, and plurals work where the old `{name}` replacement
 * could not.
 */
/** Every template: a record over the `EmailTemplate` union, so the compiler asks for a new one here. */
const EVERY_TEMPLATE: Record<EmailTemplate, true> = {
  'order-credentials': true,
  'reset-code': true,
  'password-changed': true,
  'login-locked': true,
  'temporary-password': true,
  'sharing-started': true,
  'sharing-declined': true,
  'sharing-stopped': true,
  'sharing-silent': true,
  'trial-reminder': true,
  'renewal-failed': true,
  'subscription-ended': true,
  'subscription-canceled': true,
  'cancel-link': true,
  'withdraw-link': true,
  'withdrawal-confirmed': true,
  'refund-issued': true,
  'trial-refunded': true,
  'payment-receipt': true,
  'annual-notice': true,
  'contact-message': true,
  'support-reply': true,
};
const TEMPLATES = Object.keys(EVERY_TEMPLATE) as EmailTemplate[];

/** Every argument the `Email` texts name, with a value that shows where it landed (and markup to be escaped). */
const PARAMS = {
  link: 'https://example.test/x/',
  order: 'ORD-1',
  paidAt: '24 Nov 2026',
  amount: 'US$0.99',
  phone: '+4915123456781',
  date: '24 Nov 2026',
  local: 'local time',
  refund: 'US$0.99',
  email: 'ana@example.com',
  password: 'Pw-1234567',
  monthly: 'US$49.99',
  code: '123456',
  count: 2,
  descriptor: 'CHAMSPY',
  next: '24 Dec 2026',
  card: 'Visa •••• 4242',
  cancel: 'https://example.test/cancel/',
  billing: 'https://example.test/dashboard/billing/',
  start: '24 Nov 2026',
  name: 'Ana <b>{x}</b>',
  message: "It's {fine} <i>really</i>",
  reply: 'Thanks',
  refundMinor: 99,
  method: 'card',
};

/** What must never reach a reader: an unformatted argument, ICU syntax, or a key shown for a missing text. */
const LEFTOVER = /\{\s*\w+\s*(,|\})|\b(Email|Sms|Api)\.\w+/;

describe('server translator (server/i18n.ts)', () => {
  it.each(routing.locales)('renders every e-mail template in %s', (locale) => {
    const errors = vi.spyOn(console, 'error');
    for (const template of TEMPLATES) {
      for (const extra of [{}, { method: 'wallet', refundMinor: 0, password: '' }]) {
        const mail = renderEmail(template, locale, { ...PARAMS, ...extra });
        // User text may hold braces: it is a value, shown as given (escaped in HTML), never parsed as ICU.
        const values = (text: string) => text.replaceAll(PARAMS.name, '').replaceAll(PARAMS.message, '');
        expect(values(mail.subject), template).not.toMatch(LEFTOVER);
        expect(values(mail.text), template).not.toMatch(LEFTOVER);
        expect(mail.html, template).not.toMatch(/<b>|<i>/);
        expect(mail.html).toContain(`lang="${pickLanguage(locale)}"`);
      }
    }
    expect(errors).not.toHaveBeenCalled();
    errors.mockRestore();
  });

  it.each(routing.locales)('renders every consent SMS in %s with the link of its locale', (locale) => {
    const link = consentLink('https://example.test', locale, 'C0DE');
    for (const text of SMS_TEXTS) {
      for (const name of ['Ana {sister}', null]) {
        const sms = consentSmsText(locale, 'Chamspy', link, text, name);
        expect(sms.endsWith(link)).toBe(true);
        expect(sms.replace('Ana {sister}', '')).not.toMatch(LEFTOVER);
      }
    }
  });

  it.each(['en', 'id', 'es'] as const)('renders every push alert text in %s', (lang) => {
    const push = (JSON.parse(readFileSync('messages/en.json', 'utf8')) as { Push: Record<string, string> }).Push;
    for (const key of Object.keys(push)) {
      const text = translate(lang, `Push.${key}`, { phone: '+49 1512 3456781' });
      expect(text, key).not.toMatch(LEFTOVER);
    }
  });

  it('formats ICU plurals, which the catalogues use, in every language', () => {
    expect(translate('en', 'Pay.includes', { count: 1 })).toMatch(/^1 location request a month/);
    expect(translate('en', 'Pay.includes', { count: 3 })).toMatch(/^3 location requests a month/);
    const es = translate('es', 'Pay.includes', { count: 3 });
    expect(es).toMatch(/^3 /);
    expect(es).not.toContain('{');
  });

  it('falls back to English for a key a language lacks, and to the key when none has it', () => {
    const en = JSON.parse(readFileSync('messages/en.json', 'utf8')) as { Api: Record<string, string> };
    expect(translate('id', 'Api.notFound')).not.toBe('Api.notFound');
    expect(translate('en', 'Api.notFound')).toBe(en.Api.notFound);
    expect(translate('es', 'Api.noSuchKeyAnywhere')).toBe('Api.noSuchKeyAnywhere');
  });

  it('picks the answer language from Accept-Language or a locale', () => {
    expect(pickLanguage('fr-FR, es;q=0.8, en;q=0.5')).toBe('es');
    expect(pickLanguage('en-PH')).toBe('en');
    expect(pickLanguage('id')).toBe('id');
    expect(pickLanguage('fr')).toBe('en');
    expect(pickLanguage(undefined)).toBe('en');
    // Order breaks a tie in q, whether a tag is exact or narrowed (RFC 4647 lookup: en-PH → en).
    expect(pickLanguage('en-PH, id')).toBe('en');
    expect(pickLanguage('id-ID;q=0.9, es-MX')).toBe('es');
    expect(pickLanguage('es;q=0, id;q=0.1')).toBe('id');
    // Tags that are not BCP 47 are skipped, not fatal.
    expect(pickLanguage('*, x_y, @@, es')).toBe('es');
    expect(pickLanguage('*')).toBe('en');
  });
});
