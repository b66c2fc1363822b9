import 'server-only';
import { parsePhone, PhoneParseError } from '../phone-info';

// Phone numbers as the console reads them.

/** The E.164 form of `input` (international, with or without `+`) by the project's parser, or null. */
export function e164OrNull(input: string): string | null {
  const trimmed = input.trim();
  try {
    return parsePhone(trimmed.startsWith('+') ? trimmed : `+${trimmed}`).number;
  } catch (error) {
    if (error instanceof PhoneParseError) return null;
    throw error;
  }
}
