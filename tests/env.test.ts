import { describe, expect, it } from 'vitest';
import { devOutboxEnabled, parseEnv } from '@/server/env';
import { parseBrowserSettings } from '@/lib/settings/browser';
import { LIVE_PROVIDERS, LIVE_SETTINGS } from './support/live-settings';

describe('settings (server/env.ts)', () => {
  it('applies the documented defaults', () => {
    const e = parseEnv({});
    expect(e).toMatchObject({
      EMBEDDED_PG_DIR: '.data/pg',
      EMBEDDED_PG_PORT: 54329,
      PAYMENT_PROVIDER: 'sandbox',
      SMS_PROVIDER: 'outbox',
      TRUSTED_PROXIES: [],
      CONSENT_LINK_TTL_HOURS: 24,
    });
    expect(e.DATABASE_URL).toBeUndefined();
    expect(devOutboxEnabled(e)).toBe(true);
    expect(devOutboxEnabled(parseEnv({ DEV_OUTBOX: 'off' }))).toBe(false);
  });

  it('names every bad setting in one message', () => {
    expect(() => parseEnv({ DATABASE_URL: 'not a url', PAYMENT_PROVIDER: 'paypal', EMBEDDED_PG_PORT: '80' })).toThrow(
      /DATABASE_URL[\s\S]*EMBEDDED_PG_PORT[\s\S]*PAYMENT_PROVIDER/,
    );
  });

  it('points links at the port the server runs on unless APP_ORIGIN says otherwise', () => {
    expect(parseEnv({}).APP_ORIGIN).toBe('http://localhost:3000');
    expect(parseEnv({ PORT: '3300' }).APP_ORIGIN).toBe('http://localhost:3300');
    expect(parseEnv({ PORT: '3300', APP_ORIGIN: 'https://chamspy.example' }).APP_ORIGIN).toBe(
      'https://chamspy.example',
    );
  });

  it('splits the trusted proxy list', () => {
    expect(parseEnv({ TRUSTED_PROXIES: '10.0.0.1, 10.0.0.2' }).TRUSTED_PROXIES).toEqual(['10.0.0.1', '10.0.0.2']);
  });
});

describe('start-up summary', () => {
  it('names the links origin, the database without its password, and the providers', async () => {
    const { startupSummary } = await import('@/server/lifecycle');
    const text = startupSummary(
      parseEnv({ PORT: '3300', DATABASE_URL: 'postgres://app:s3cret@db.internal:5433/chamspy' }),
      'postgres://app:s3cret@db.internal:5433/chamspy',
    );
    expect(text).toContain('http://localhost:3300');
    expect(text).toContain('db.internal:5433/chamspy');
    expect(text).not.toContain('s3cret');
    expect(text).toMatch(/payments sandbox, SMS outbox, e-mail outbox/);
  });
});

describe('live mode', () => {
  const live = LIVE_PROVIDERS;

  it('refuses to start with any demo placeholder left, naming each setting', () => {
    expect(() => parseEnv(live)).toThrow(
      /NEXT_PUBLIC_COMPANY_NAME[\s\S]*placeholder[\s\S]*SUPPORT_EMAIL[\s\S]*BILLING_DESCRIPTOR[\s\S]*APP_ORIGIN/,
    );
    expect(() => parseEnv({ ...live, APP_ORIGIN: 'http://chamspy.example' })).toThrow(
      /APP_ORIGIN: must be the public https/,
    );
  });

  it('starts with a real identity; demo mode keeps its placeholders', () => {
    const e = parseEnv(LIVE_SETTINGS);
    expect(e.APP_ORIGIN).toBe('https://chamspy.example');
    expect(
      parseEnv({
        PAYMENT_PROVIDER: 'stripe',
        STRIPE_SECRET_KEY: 'sk_test_x',
        STRIPE_WEBHOOK_SECRET: 'whsec_x',
        STRIPE_PUBLISHABLE_KEY: 'pk_test_x',
      }).BILLING_DESCRIPTOR,
    ).toBe('CHAMSPY DEMO');
  });

  it('refuses DEV_OUTBOX=on, which would show real messages and their links at /dev/outbox', () => {
    const identity = LIVE_SETTINGS;
    expect(() => parseEnv({ ...identity, DEV_OUTBOX: 'on' })).toThrow(/DEV_OUTBOX: must not be on in live mode/);
    expect(devOutboxEnabled(parseEnv({ ...identity, DEV_OUTBOX: 'auto' }))).toBe(false);
    expect(devOutboxEnabled(parseEnv({ DEV_OUTBOX: 'on', EMAIL_PROVIDER: 'smtp', SMTP_URL: 'smtp://x' }))).toBe(true);
  });
});

describe('browser settings (lib/settings/browser.ts), checked when the build starts and at start-up', () => {
  it('applies the defaults the browser code reads, empty values counting as unset', () => {
    expect(parseBrowserSettings({ NEXT_PUBLIC_HELP_CHAT: '', NEXT_PUBLIC_TILE_URL: '' })).toMatchObject({
      NEXT_PUBLIC_PRODUCT_NAME: 'Chamspy',
      NEXT_PUBLIC_HELP_CHAT: 'none',
      NEXT_PUBLIC_EVENT_SERVICE: 'none',
      NEXT_PUBLIC_IOS_BRIDGE: 'N8WebView',
      NEXT_PUBLIC_ANDROID_BRIDGE: 'AndroidBridge',
      NEXT_PUBLIC_TILE_URL: 'https://{s}.tile.openstreetmap.org/{z}/{x}/{y}.png',
    });
    const tiles = 'https://{s}.tile.example.org/{z}/{x}/{y}.png';
    expect(parseBrowserSettings({ NEXT_PUBLIC_TILE_URL: tiles }).NEXT_PUBLIC_TILE_URL).toBe(tiles);
  });

  it('names every bad browser setting, at the build and at the server start alike', () => {
    const bad = {
      NEXT_PUBLIC_HELP_CHAT: 'zendesk',
      NEXT_PUBLIC_TILE_URL: 'http://tiles.example.org/tile.png',
      NEXT_PUBLIC_GA_MEASUREMENT_ID: 'UA-123',
      NEXT_PUBLIC_TRACKER_ORIGIN: 'javascript:alert(1)',
    };
    for (const name of Object.keys(bad)) {
      expect(() => parseBrowserSettings(bad)).toThrow(new RegExp(`  ${name}: `));
      expect(() => parseEnv(bad)).toThrow(new RegExp(`  ${name}: `));
    }
  });

  it('refuses a chosen help chat or event service without its id, and a tracker origin with a path', () => {
    const cases: [Record<string, string>, string][] = [
      [{ NEXT_PUBLIC_HELP_CHAT: 'crisp' }, 'NEXT_PUBLIC_CRISP_WEBSITE_ID: required when NEXT_PUBLIC_HELP_CHAT=crisp'],
      [
        { NEXT_PUBLIC_EVENT_SERVICE: 'gtag' },
        'NEXT_PUBLIC_GA_MEASUREMENT_ID: required when NEXT_PUBLIC_EVENT_SERVICE=gtag',
      ],
      [{ NEXT_PUBLIC_TRACKER_ORIGIN: 'https://t.example.org/collect' }, 'NEXT_PUBLIC_TRACKER_ORIGIN: an origin only'],
    ];
    for (const [settings, message] of cases) {
      expect(() => parseBrowserSettings(settings)).toThrow(message);
      expect(() => parseEnv(settings)).toThrow(message);
    }
    const complete = {
      NEXT_PUBLIC_HELP_CHAT: 'crisp',
      NEXT_PUBLIC_CRISP_WEBSITE_ID: 'abc-123',
      NEXT_PUBLIC_EVENT_SERVICE: 'gtag',
      NEXT_PUBLIC_GA_MEASUREMENT_ID: 'G-ABC123',
      NEXT_PUBLIC_TRACKER_ORIGIN: 'https://t.example.org',
    };
    expect(parseBrowserSettings(complete)).toMatchObject(complete);
    expect(parseEnv(complete)).toMatchObject(complete);
  });
});
