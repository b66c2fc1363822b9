import 'server-only';
import { parseE164 } from '../../lib/contracts/e164';
import { e164ErrorKey, type E164, type E164Error } from '../../lib/contracts/phone';
import { ApiError, ErrorCode } from './errors';

/**
 * The API's one answer to a refused phone number: 400 `ErrorCode.badRequest`, the message of `e164ErrorKey` in the
 * request's language (lib/contracts/phone.ts), and `kind` (docs/rules.md#validation's error kinds) in the envelope.
 */
export function phoneApiError(error: E164Error): ApiError {
  return new ApiError(400, ErrorCode.badRequest, e164ErrorKey(error), {}, { kind: error.kind });
}

/**
 * Parses a number where it enters the API (`input` as typed, national numbers read in `country`, ISO 3166-1 alpha-2),
 * once: what the route passes on is the `E164`. Throws `phoneApiError` when it is refused.
 */
export function e164Of(input: string, country?: string): E164 {
  const parsed = parseE164(input, country);
  if (!parsed.ok) throw phoneApiError(parsed.error);
  return parsed.value;
}
