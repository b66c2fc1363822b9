import 'server-only';
import { parseE164 } from '../../../lib/contracts/e164';
import type { E164 } from '../../../lib/contracts/phone';

// Phone numbers as the console reads them.

/** The E.164 form of `input` (international, with or without `+`) by the project's parser (lib/contracts/e164.ts), or null. */
export function e164OrNull(input: string): E164 | null {
  const trimmed = input.trim();
  const parsed = parseE164(trimmed.startsWith('+') ? trimmed : `+${trimmed}`);
  return parsed.ok ? parsed.value : null;
}
