import { describe, expect, it } from 'vitest';
import { devOutboxEnabled, parseEnv } from '@/server/env';

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

  it('points links at the port the server runs on unless APP_ORIGIN says otherwise (issue 16 §1)', () => {
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

describe('start-up summary (issue 16 §1)', () => {
  it('names the links origin, the database without its password, and the providers', async () => {
    const { startupSummary } = await import('@/server/start');
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
