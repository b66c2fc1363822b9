import 'server-only';
import type { Db, Tx } from '../../db/client';
import { optOuts } from '../../db/schema';
import type { E164 } from '../../../lib/contracts/phone';

// The opt-out list: numbers that want no more consent SMS (docs/rules.md, "Consent" and "SMS"), added when the owner
// reports abuse on the consent page or in the safety centre, or when the number answers STOP (Twilio "Advanced
// Opt-Out" docs and the carriers' keywords, ./sms-status.ts). The consent SMS guards read it before every SMS
// (services/locate/sms-guards.ts).

/** Records that `e164` wants no more consent SMS (report abuse on the consent page, or STOP). Idempotent. */
export async function optOut(db: Db | Tx, e164: E164, reason: 'report' | 'stop', requestId?: string): Promise<void> {
  await db.insert(optOuts).values({ phoneE164: e164, reason, requestId }).onConflictDoNothing();
}
