import { afterEach, describe, expect, it, vi } from 'vitest';
import { debounce, formatDate, randomId, toMillis } from '@/lib/format';

describe('format helpers (docs/rules.md#limits)', () => {
  afterEach(() => vi.useRealTimers());

  it('reads 10-digit timestamps as seconds', () => {
    expect(toMillis(1_700_000_000)).toBe(1_700_000_000_000);
    expect(toMillis(1_700_000_000_123)).toBe(1_700_000_000_123);
    expect(toMillis('1700000000')).toBe(1_700_000_000_000);
  });

  it('formats with the tokens Y m d H M S', () => {
    expect(formatDate(Date.UTC(2026, 0, 5, 7, 8, 9), 'Y-m-d H:M:S', true)).toBe('2026-01-05 07:08:09');
    expect(formatDate(1_767_596_889, 'd/m/Y', true)).toBe('05/01/2026');
  });

  it('debounces to the last call after 500 ms by default', () => {
    vi.useFakeTimers();
    const fn = vi.fn();
    const d = debounce(fn);
    d(1);
    d(2);
    vi.advanceTimersByTime(499);
    expect(fn).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(fn).toHaveBeenCalledExactlyOnceWith(2);
    d(3);
    d.cancel();
    vi.advanceTimersByTime(1000);
    expect(fn).toHaveBeenCalledTimes(1);
  });

  it('makes UUID-like 36-character ids and alphanumeric ids of a given length', () => {
    const id = randomId();
    expect(id).toMatch(/^[A-Za-z0-9]{8}-[A-Za-z0-9]{4}-[A-Za-z0-9]{4}-[A-Za-z0-9]{4}-[A-Za-z0-9]{12}$/);
    expect(randomId(50)).toMatch(/^[A-Za-z0-9]{50}$/);
    expect(new Set(Array.from({ length: 100 }, () => randomId())).size).toBe(100);
  });
});
