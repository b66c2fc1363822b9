/**
 * Small shared helpers (docs/rules.md#limits).
 */

/** Milliseconds from a timestamp: 10-digit numbers are seconds (×1000), others milliseconds; strings parsed. */
export function toMillis(value: number | string | Date): number {
  if (value instanceof Date) return value.getTime();
  if (typeof value === 'string' && !/^\d+$/.test(value)) return new Date(value).getTime();
  const n = Number(value);
  return String(Math.trunc(Math.abs(n))).length === 10 ? n * 1000 : n;
}

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * Formats a time with the tokens Y (4-digit year), m (month), d (day), H (hour 0–23), M (minute), S (second),
 * each zero-padded, in local time or UTC (`utc`). Other characters pass through: `formatDate(t, 'Y-m-d H:M')`.
 */
export function formatDate(value: number | string | Date, pattern = 'Y-m-d H:M:S', utc = false): string {
  const d = new Date(toMillis(value));
  const parts: Record<string, string> = utc
    ? {
        Y: String(d.getUTCFullYear()),
        m: pad(d.getUTCMonth() + 1),
        d: pad(d.getUTCDate()),
        H: pad(d.getUTCHours()),
        M: pad(d.getUTCMinutes()),
        S: pad(d.getUTCSeconds()),
      }
    : {
        Y: String(d.getFullYear()),
        m: pad(d.getMonth() + 1),
        d: pad(d.getDate()),
        H: pad(d.getHours()),
        M: pad(d.getMinutes()),
        S: pad(d.getSeconds()),
      };
  return pattern.replace(/[YmdHMS]/g, (t) => parts[t]);
}

/** Debounces `fn` by `waitMs` (default 500 ms, docs/rules.md#limits); `cancel()` drops a pending call. */
export function debounce<A extends unknown[]>(fn: (...args: A) => void, waitMs = 500) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const debounced = (...args: A) => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      fn(...args);
    }, waitMs);
  };
  debounced.cancel = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
  };
  return debounced;
}

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/**
 * A random alphanumeric id from the Web Crypto CSPRNG. With no length: a UUID-like 36-character id (8-4-4-4-12,
 * docs/rules.md#limits); with `length`: that many alphanumeric characters.
 */
export function randomId(length?: number): string {
  const draw = (n: number): string => {
    const bytes = crypto.getRandomValues(new Uint8Array(n));
    // 248 = 62 × 4: rejecting bytes ≥ 248 keeps every character equally likely.
    let out = '';
    for (const b of bytes) if (b < 248) out += ALPHANUMERIC[b % 62];
    return out.length >= n ? out.slice(0, n) : out + draw(n - out.length);
  };
  if (length !== undefined) return draw(length);
  const raw = draw(32);
  return `${raw.slice(0, 8)}-${raw.slice(8, 12)}-${raw.slice(12, 16)}-${raw.slice(16, 20)}-${raw.slice(20)}`;
}
