import 'server-only';
import { desc } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { operatorAudit } from '../../db/schema';
import type { OperatorView } from './types';

// The operator audit log: every console action that changes something, with who, what, why.

/**
 * Appends one entry to the audit log, in the caller's transaction when it has one so the entry and the
 * change commit together. `detail` must hold no secret.
 */
export async function audit(
  tx: Db | Tx,
  operator: Pick<OperatorView, 'id' | 'email'>,
  action: string,
  target?: { type: string; id: string },
  reason?: string,
  detail?: Record<string, unknown>,
): Promise<void> {
  await tx.insert(operatorAudit).values({
    operatorId: operator.id,
    operatorEmail: operator.email,
    action,
    targetType: target?.type,
    targetId: target?.id,
    reason,
    detail,
  });
}

/** The newest audit entries (at most 200). */
export function auditLog(db: Db) {
  return db.select().from(operatorAudit).orderBy(desc(operatorAudit.id)).limit(200);
}
