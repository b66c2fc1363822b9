/**
 * Dates, times, time zones and durations as the reader's locale writes them: every absolute time
 * shows its zone, so a buyer in Jakarta and an owner in Madrid read the same instant correctly. All functions take
 * the page's locale (`en`, `es`, `id`, `en-PH`) and format in the reader's own time zone unless `timeZone` is given.
 */

/** Time zone of the reader's browser (IANA name), or undefined on the server. */
function readerZone(timeZone?: string): string | undefined {
  return timeZone ?? (typeof window === 'undefined' ? undefined : Intl.DateTimeFormat().resolvedOptions().timeZone);
}

/**
 * Date and time with the zone's short name: "Nov 23, 2026, 14:05 GMT+7" / "23 nov 2026, 14:05 CET". `dateStyle` and
 * `timeZoneName` cannot be combined in Intl, so the fields are named one by one.
 */
export function formatDateTime(value: string | number | Date, locale: string, timeZone?: string): string {
  return new Intl.DateTimeFormat(locale, {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    timeZoneName: 'short',
    timeZone: readerZone(timeZone),
  }).format(new Date(value));
}

/** A date alone ("Nov 23, 2026"), for billing periods and order lists. */
export function formatDay(value: string | number | Date, locale: string, timeZone?: string): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: readerZone(timeZone) }).format(
    new Date(value),
  );
}

/** A time of today with its zone ("14:05 GMT+7"), e.g. when sharing ends. */
export function formatTime(value: string | number | Date, locale: string, timeZone?: string): string {
  return new Intl.DateTimeFormat(locale, {
    hour: '2-digit',
    minute: '2-digit',
    timeZoneName: 'short',
    timeZone: readerZone(timeZone),
  }).format(new Date(value));
}

/**
 * How long ago `value` was, relative to `now` (ms since epoch), in the locale's words: "52 minutes ago", "hace 3 horas",
 * "baru saja" ('now' under a minute). Whole minutes under an hour, hours under two days, then days.
 */
export function formatAgo(
  value: string | number | Date,
  locale: string,
  now: number,
  options: { seconds?: boolean } = {},
): string {
  const seconds = Math.round((new Date(value).getTime() - now) / 1000);
  const format = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
  const abs = Math.abs(seconds);
  // With `seconds` (a live view ticking every second): "12 seconds ago" under a minute.
  if (abs < 60) return options.seconds ? format.format(Math.min(0, seconds), 'second') : format.format(0, 'minute');
  if (abs < 3600) return format.format(Math.trunc(seconds / 60), 'minute');
  if (abs < 48 * 3600) return format.format(Math.trunc(seconds / 3600), 'hour');
  return format.format(Math.trunc(seconds / 86400), 'day');
}

/**
 * An IANA zone as the locale names it, with its local time now: "Brasilia Time (14:05)" for `America/Sao_Paulo`,
 * "hora de India (22:35)" for `Asia/Calcutta` in Spanish (`timeZoneName: 'longGeneric'`). The raw id when the
 * runtime does not know the zone.
 */
export function formatZone(zone: string, locale: string, now: number): string {
  try {
    const name = new Intl.DateTimeFormat(locale, { timeZone: zone, timeZoneName: 'longGeneric' })
      .formatToParts(now)
      .find((p) => p.type === 'timeZoneName')?.value;
    const time = new Intl.DateTimeFormat(locale, { timeZone: zone, hour: '2-digit', minute: '2-digit' }).format(now);
    return `${name ?? zone} (${time})`;
  } catch {
    return zone;
  }
}

/** A region's name in the locale ("Estados Unidos" for `US` in `es`), from `Intl.DisplayNames`; the code if unknown. */
export function regionName(code: string, locale: string): string {
  try {
    return new Intl.DisplayNames([locale], { type: 'region' }).of(code) ?? code;
  } catch {
    return code;
  }
}

/**
 * Until when something lasts, as short as it can be read without doubt: the time with its zone when `value` falls on
 * the reader's today ("14:05 GMT+7"), else the date and time (`formatDateTime`). `now` is ms since the epoch.
 */
export function formatUntil(value: string | number | Date, locale: string, now: number, timeZone?: string): string {
  const day = (t: number | Date | string) =>
    new Intl.DateTimeFormat('en-CA', { dateStyle: 'short', timeZone: readerZone(timeZone) }).format(new Date(t));
  return day(value) === day(now) ? formatTime(value, locale, timeZone) : formatDateTime(value, locale, timeZone);
}
