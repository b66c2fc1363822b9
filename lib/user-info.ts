import { readCookie } from './browser-cookies';

/** The `userInfo` cookie (docs/rules.md#entities: e-mail and paymentCount), or null when absent or unreadable. */
export function readUserInfo(): { email: string } | null {
  const raw = rawUserInfo();
  if (!raw) return null;
  try {
    const info = JSON.parse(raw) as { email?: unknown };
    return typeof info.email === 'string' ? { email: info.email } : null;
  } catch {
    return null;
  }
}

const SESSION_EVENT = 'chamspy:session';
let lastSeen: string | undefined;

/** The `userInfo` cookie's decoded value ('' when absent). */
function rawUserInfo(): string {
  return readCookie('userInfo') ?? '';
}

/**
 * Tells subscribers when an API answer set or cleared the `userInfo` cookie (a payment that signed the buyer in, a
 * sign-out), so the header shows the signed-in navigation without a reload. Cheap: one cookie read.
 */
export function noteUserInfoChange(): void {
  const now = rawUserInfo();
  if (lastSeen !== undefined && now !== lastSeen) window.dispatchEvent(new Event(SESSION_EVENT));
  lastSeen = now;
}

/** `useSyncExternalStore` subscription to the `userInfo` cookie; returns the unsubscribe function. */
export function subscribeUserInfo(onChange: () => void): () => void {
  lastSeen ??= rawUserInfo();
  window.addEventListener(SESSION_EVENT, onChange);
  return () => window.removeEventListener(SESSION_EVENT, onChange);
}
