import { describe, expect, it } from 'vitest';
import { distanceMeters, shouldSendFix } from '@/lib/geo';

describe('geo helpers', () => {
  it('measures great-circle distances in metres', () => {
    // Madrid (Puerta del Sol) to Barcelona (Plaça de Catalunya): about 505 km.
    const d = distanceMeters({ latitude: 40.4169, longitude: -3.7035 }, { latitude: 41.3874, longitude: 2.1686 });
    expect(d / 1000).toBeGreaterThan(500);
    expect(d / 1000).toBeLessThan(510);
    expect(distanceMeters({ latitude: 0, longitude: 0 }, { latitude: 0, longitude: 0 })).toBe(0);
  });

  it('sends a fix every 15 s, or sooner when the phone moved farther than the fix accuracy (at most 100 m)', () => {
    const at = 1_000_000;
    const here = { latitude: 40.4169, longitude: -3.7035, at };
    expect(shouldSendFix(null, here)).toBe(true);
    expect(shouldSendFix(here, { ...here, at: at + 10_000 })).toBe(false);
    expect(shouldSendFix(here, { ...here, at: at + 15_000 })).toBe(true);
    // A move farther than the fix's own accuracy is sent at once; a smaller one waits.
    expect(shouldSendFix(here, { ...here, latitude: here.latitude + 0.0002, at: at + 1_000, accuracy: 10 })).toBe(true);
    expect(shouldSendFix(here, { ...here, latitude: here.latitude + 0.0002, at: at + 1_000, accuracy: 50 })).toBe(
      false,
    );
    // 0.0005° of latitude ≈ 55 m.
    expect(shouldSendFix(here, { ...here, latitude: here.latitude + 0.0005, at: at + 2_000, accuracy: 20 })).toBe(true);
    expect(shouldSendFix(here, { ...here, latitude: here.latitude + 0.0005, at: at + 2_000 })).toBe(false);
    expect(shouldSendFix(here, { ...here, latitude: here.latitude + 0.001, at: at + 2_000, accuracy: 500 })).toBe(true);
    expect(shouldSendFix(here, { ...here, latitude: here.latitude + 0.0001, at: at + 2_000 })).toBe(false);
  });
});
