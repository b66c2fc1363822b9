import 'server-only';
import { parseE164 } from '../../../lib/contracts/e164';
import type { E164 } from '../../../lib/contracts/phone';

// Phone numbers as the console reads them.

/** `input` as the console reads a number: international, the `+` optional (`34612345678` is `+34612345678`). */
export function asInternational(input: string): string {
  const trimmed = input.trim();
  return trimmed.startsWith('+') ? trimmed : `+${trimmed}`;
}

/** The E.164 form of `input` (asInternational) by the project's parser (lib/contracts/e164.ts), or null. */
export function e164OrNull(input: string): E164 | null {
  const parsed = parseE164(asInternational(input));
  return parsed.ok ? parsed.value : null;
}
