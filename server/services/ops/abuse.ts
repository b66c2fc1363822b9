import 'server-only';
import { desc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { consents, locationRequests, optOuts, users } from '../../db/schema';
import { notFound } from '../../errors';
import type { OperatorView } from './types';
import { audit } from './audit';
import type { E164 } from '../../../lib/contracts/phone';

// The console's abuse desk: reports from phone owners and the opt-out list.

/**
 * Abuse reports (the owners' `reported` decisions, newest first, at most 100, with the owner's optional reason: plain
 * text, at most 140 characters, no links or numbers) with the reported request's buyer, and
 * the opt-out list. No consent code, token or SMS text is returned.
 */
export async function abuseOverview(db: Db) {
  const reports = await db
    .select({
      id: consents.id,
      requestId: consents.requestId,
      targetE164: consents.targetE164,
      reportedAt: consents.createdAt,
      reason: consents.reason,
      buyerEmail: users.email,
      requestStatus: locationRequests.status,
    })
    .from(consents)
    .leftJoin(locationRequests, eq(locationRequests.id, consents.requestId))
    .leftJoin(users, eq(users.id, locationRequests.userId))
    .where(eq(consents.decision, 'reported'))
    .orderBy(desc(consents.createdAt))
    .limit(100);
  const optOutList = await db.select().from(optOuts).orderBy(desc(optOuts.createdAt)).limit(500);
  return { reports, optOuts: optOutList };
}

/**
 * Adds a number to the opt-out list (no consent SMS goes to it any more; services/locate/sms-guards.ts) with the
 * operator's reason, and audits `opt_out.add`. A number already listed keeps its first reason (200, `added: false`).
 */
export async function addOptOut(db: Db, operator: OperatorView, phoneE164: E164, reason: string) {
  return db.transaction(async (tx) => {
    const rows = await tx
      .insert(optOuts)
      .values({ phoneE164, reason: 'operator', note: reason })
      .onConflictDoNothing()
      .returning();
    await audit(tx, operator, 'opt_out.add', { type: 'phone', id: phoneE164 }, reason, { added: rows.length > 0 });
    return { phoneE164, added: rows.length > 0 };
  });
}

/** Removes a number from the opt-out list (consent SMS may go to it again) and audits `opt_out.remove`. 404 if absent. */
export async function removeOptOut(db: Db, operator: OperatorView, phoneE164: E164, reason: string) {
  return db.transaction(async (tx) => {
    const [removed] = await tx.delete(optOuts).where(eq(optOuts.phoneE164, phoneE164)).returning();
    if (!removed) throw notFound();
    await audit(tx, operator, 'opt_out.remove', { type: 'phone', id: phoneE164 }, reason, {
      previousReason: removed.reason,
    });
    return { phoneE164 };
  });
}
