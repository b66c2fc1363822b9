import { bigint, index, jsonb, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { at, createdAt, id, timestamps } from './columns';

/**
 * An operator of the console `/ops`, created only by `npm run ops:create-operator -- email`. Signs in
 * with a password (argon2id hash) and a TOTP code (RFC 6238, 30 s, 6 digits) from `totpSecret` (base32). The secret
 * must stay readable to check codes, so it is never selected for display; `totpLastStep` is the 30-second step of the
 * last accepted code, so one code never signs in twice (RFC 6238 §5.2).
 */
export const operators = pgTable(
  'operators',
  {
    id: id(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    totpSecret: text('totp_secret').notNull(),
    totpLastStep: bigint('totp_last_step', { mode: 'number' }),
    disabledAt: at('disabled_at'),
    ...timestamps(),
  },
  (t) => [uniqueIndex('operators_email_key').on(t.email)],
);

/** An operator's session: the SHA-256 of a 256-bit token, 12 hours from sign-in, never extended. */
export const operatorSessions = pgTable(
  'operator_sessions',
  {
    id: id(),
    operatorId: uuid('operator_id')
      .notNull()
      .references(() => operators.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    ip: text('ip'),
    createdAt: createdAt(),
    expiresAt: at('expires_at').notNull(),
    revokedAt: at('revoked_at'),
  },
  (t) => [uniqueIndex('operator_sessions_token_hash_key').on(t.tokenHash)],
);

/**
 * The operators' audit log: who did what to which record, when and why. Append-only: a database
 * trigger refuses UPDATE, DELETE and TRUNCATE. `operatorEmail` is copied so an entry stands on its own.
 */
export const operatorAudit = pgTable(
  'operator_audit',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    operatorId: uuid('operator_id'),
    operatorEmail: text('operator_email').notNull(),
    /** e.g. `sign_in`, `order.refund`, `subscription.cancel`, `opt_out.add`, `message.retry`, `support.reply`. */
    action: text('action').notNull(),
    targetType: text('target_type'),
    targetId: text('target_id'),
    reason: text('reason'),
    /** What changed, without secrets (amounts, states before and after). */
    detail: jsonb('detail').$type<Record<string, unknown>>(),
    createdAt: createdAt(),
  },
  (t) => [index('operator_audit_created_at_idx').on(t.createdAt)],
);

export type Operator = typeof operators.$inferSelect;
export type OperatorAuditEntry = typeof operatorAudit.$inferSelect;
