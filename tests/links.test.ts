import { describe, expect, it } from 'vitest';
import { isExternalLink, linkKind, withTrackedParams } from '@/lib/routing/links';

describe('external-link check (docs/rules.md#validation)', () => {
  it.each([
    'https://example.com',
    'http://example.com/a?b=1#c',
    'ftp://files.example.org/x.zip',
    'https://sub.domain.co.uk:8443/path',
    'http://localhost:3000/',
    'mailto:support@example.com',
    'mailto:support@example.com?subject=Help',
  ])('accepts %s', (href) => expect(isExternalLink(href)).toBe(true));

  it.each([
    '/about-us/',
    '#price',
    'https://',
    'https://nodot',
    'ftp:/example.com',
    'javascript:alert(1)',
    'mailto:nobody',
    'example.com',
  ])('rejects %s', (href) => expect(isExternalLink(href)).toBe(false));
});

describe('link rules (docs/rules.md#routes)', () => {
  it('classifies links', () => {
    expect(linkKind('/about-us/', '/', true)).toBe('disabled');
    expect(linkKind('https://example.com', '/')).toBe('external');
    expect(linkKind('mailto:a@example.com', '/')).toBe('external');
    expect(linkKind('tel:+14155552671', '/')).toBe('external');
    expect(linkKind('#faq', '/es/')).toBe('hash');
    expect(linkKind('/es/#faq', '/es/')).toBe('hash');
    expect(linkKind('/es/#faq', '/es/faq/')).toBe('internal');
    expect(linkKind('/es/about-us/', '/es/')).toBe('internal');
  });

  it('carries the tracked parameters of the current address, not others, and keeps the fragment last', () => {
    const search = '?utm_source=g&gclid=abc&utm_term=phone&session=secret';
    expect(withTrackedParams('/es/about-us/', search)).toBe('/es/about-us/?utm_source=g&utm_term=phone&gclid=abc');
    expect(withTrackedParams('/terms-of-use/#refund', '?gclid=abc')).toBe('/terms-of-use/?gclid=abc#refund');
    expect(withTrackedParams('/login/?redirect=billing', '?gclid=abc')).toBe('/login/?redirect=billing&gclid=abc');
    expect(withTrackedParams('/x/?gclid=mine', '?gclid=abc')).toBe('/x/?gclid=mine');
    expect(withTrackedParams('/x/', '?other=1')).toBe('/x/');
  });
});
