import { readCookie } from '../browser-cookies';

/** Window event dispatched when the visitor answers the cookie banner; ad events waiting for the answer listen for it. */
export const COOKIE_CHOICE_EVENT = 'cookiechoice';

/** The visitor's choice about optional cookies (docs/rules.md#entities `acceptCookie`): '1' accepted, '0' declined, null not asked. */
export function readCookieChoice(): '1' | '0' | null {
  const value = readCookie('acceptCookie');
  return value === '1' || value === '0' ? value : null;
}

/** Whether non-essential tracking may run (the visitor pressed Accept). Ad events and third-party services ask this. */
export function trackingAllowed(): boolean {
  return readCookieChoice() === '1';
}
