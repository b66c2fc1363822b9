import 'server-only';
import { eq, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { FUNNEL } from '../../../lib/tracking/funnel';
import { recordOrderEvent } from '../events';
import { orders, payments, priceSetups, users, type Order } from '../../db/schema';
import { isPayable } from '../../../lib/order-machine';
import { applyOrderEvent } from './order-transitions';
import { sandboxCardBrand, sandboxCharge } from '../../providers/sandbox-payments';
import { accountIdOf, createSession, hashPassword, TEMP_PASSWORD_TTL_MS } from '../accounts';
import { generatePassword } from '../tokens';
import { createLocationRequest } from '../locate';
import { queueOrderEmail, startTrial, type Fulfilment } from './paid-order';

// Paying an order and what the payment gives (docs/rules.md "Payments" and "States", docs/order-states.md): the
// sandbox's card, 3-D Secure and wallet steps (Stripe's published test-card semantics), and `fulfilOrder`, which every
// payment runs in the transaction that marks the order paid, the Stripe webhooks included: the account, the
// subscription's trial, the first location request and the order e-mail with the trial payment's receipt.

export type ClientMeta = { ip: string | null; userAgent: string | null };

export type PayResult =
  /** `token`: the new account's session; null when the order was paid into an account that already existed. */
  | { kind: 'paid'; token: string | null; email: string; phone: string; paymentCount: number }
  | { kind: 'requires_action' }
  | { kind: 'declined'; reason: string; status: 'failed' | 'canceled' }
  | { kind: 'not_payable' }
  | { kind: 'email_registered' }
  | { kind: 'not_found' };

export type { Fulfilment } from './paid-order';

type Unpayable = { kind: 'not_found' } | { kind: 'not_payable' } | { kind: 'email_registered' };

/**
 * Locks a payable order (`pending` or `failed`) of `code`, or says why it cannot be paid. An order made by a visitor
 * whose e-mail has since become an account is not charged (`email_registered`): the check made when the order was
 * created must still hold where the money moves.
 */
async function lockPayable(tx: Tx, code: string): Promise<Order | Unpayable> {
  const [order] = await tx.select().from(orders).where(eq(orders.code, code)).for('update').limit(1);
  if (!order) return { kind: 'not_found' };
  if (!isPayable(order.status)) return { kind: 'not_payable' };
  if (!order.userId && (await accountIdOf(tx, order.email))) return { kind: 'email_registered' };
  return order;
}

/**
 * Pays order `code` with a sandbox card (Stripe's test-card semantics, providers/sandbox-payments.ts):
 * - a decline marks the order `failed` (RETRY is possible); insufficient funds at registration cancels it (docs/rules.md#states);
 * - 4000 0027 6000 3184 leaves the order `pending` with a 3-D Secure step (`completeSandbox3ds`);
 * - a success runs `fulfilOrder` in the same transaction as the status change.
 */
export async function paySandboxCard(db: Db, code: string, cardNumber: string, meta: ClientMeta): Promise<PayResult> {
  const charge = sandboxCharge(cardNumber);
  const last4 = cardNumber.slice(-4);
  const brand = sandboxCardBrand(cardNumber);
  return db.transaction(async (tx) => {
    const order = await lockPayable(tx, code);
    if (!('id' in order)) return order;
    if (charge.outcome === 'declined') return decline(tx, order, charge.reason);
    if (charge.outcome === 'requires_action') {
      await applyOrderEvent(tx, order.id, 'action_required', {
        pendingAction: '3ds',
        cardLast4: last4,
        cardBrand: brand,
        sandboxRenewal: charge.renewals,
      });
      return { kind: 'requires_action' } as const;
    }
    return fulfilOrder(tx, order, meta, {
      sandboxRenewal: charge.renewals,
      cardLast4: last4,
      cardBrand: brand,
      signIn: true,
    });
  });
}

/** Completes (`approve`) or abandons the sandbox 3-D Secure step of order `code`; abandoning declines the payment. */
export async function completeSandbox3ds(db: Db, code: string, approve: boolean, meta: ClientMeta): Promise<PayResult> {
  return db.transaction(async (tx) => {
    const order = await lockPayable(tx, code);
    if (!('id' in order)) return order;
    if (order.pendingAction !== '3ds') return { kind: 'not_payable' } as const;
    if (!approve) return decline(tx, order, 'authentication_failed');
    return fulfilOrder(tx, order, meta, {
      sandboxRenewal: order.sandboxRenewal ?? 'fails',
      cardLast4: order.cardLast4 ?? undefined,
      cardBrand: order.cardBrand,
      signIn: true,
    });
  });
}

/** The sandbox wallet's answer for order `code` (the redirect flow): approved pays, cancelled cancels the order. */
export async function completeSandboxWallet(
  db: Db,
  code: string,
  approve: boolean,
  meta: ClientMeta,
): Promise<PayResult> {
  return db.transaction(async (tx) => {
    const order = await lockPayable(tx, code);
    if (!('id' in order)) return order;
    if (order.paymentMethod !== 'wallet') return { kind: 'not_payable' } as const;
    if (!approve) {
      await applyOrderEvent(tx, order.id, 'payment_canceled', { failureCode: 'wallet_canceled' });
      return { kind: 'declined', reason: 'wallet_canceled', status: 'canceled' } as const;
    }
    return fulfilOrder(tx, order, meta, { sandboxRenewal: 'succeeds', signIn: true });
  });
}

/**
 * Records a declined payment of locked, payable `order`: `failed` (may be tried again) or, for insufficient funds,
 * `canceled` (docs/order-states.md).
 */
async function decline(tx: Tx, order: Order, reason: string): Promise<PayResult> {
  const status = reason === 'insufficient_funds' ? 'canceled' : 'failed';
  await applyOrderEvent(tx, order.id, status === 'canceled' ? 'payment_canceled' : 'declined', {
    failureCode: reason,
    pendingAction: null,
  });
  await tx.insert(payments).values({
    orderId: order.id,
    kind: 'initial',
    amountMinor: order.amountMinor,
    currency: order.currency,
    status: 'failed',
    failureCode: reason,
  });
  return { kind: 'declined', reason, status };
}

/**
 * The account a paid order belongs to. An order made while signed in names its account: the payment is
 * added to it. Otherwise a new account is created with a generated temporary password (argon2id hash stored, valid 7
 * days) and `password` is returned to e-mail. If the e-mail became an account after the order was made (only possible
 * for a provider that charges before we see it, such as Stripe Checkout), the payment is added to that account but
 * nobody is signed in and no password is issued: the account's owner reads the e-mail.
 */
async function payingAccount(tx: Tx, order: Order, now: Date) {
  const counted = { id: users.id, paymentCount: users.paymentCount };
  const addPayment = (where: ReturnType<typeof eq>) =>
    tx
      .update(users)
      .set({ paymentCount: sql`${users.paymentCount} + 1` })
      .where(where)
      .returning(counted);
  if (order.userId) {
    const [user] = await addPayment(eq(users.id, order.userId));
    return { ...user, password: null };
  }
  const password = generatePassword(16);
  const [created] = await tx
    .insert(users)
    .values({
      email: order.email,
      passwordHash: await hashPassword(password),
      tempPasswordExpiresAt: new Date(now.getTime() + TEMP_PASSWORD_TTL_MS),
      paymentCount: 1,
    })
    .onConflictDoNothing({ target: users.email })
    .returning(counted);
  if (created) return { ...created, password };
  const [existing] = await addPayment(eq(users.email, order.email));
  return { ...existing, password: null };
}

/**
 * What a paid order causes, in one transaction: the order turns `paid`; the account it belongs to
 * (`payingAccount`: a new one, or the signed-in buyer's); a trialing subscription; a `payments` row; an `order.paid`
 * domain event; the location request with its consent code (stored hashed); and two outbox rows: the buyer's
 * credentials e-mail and the consent SMS. Only a newly created account, paid on our own page (`how.signIn`), gets a
 * session (`token`); a payment never signs anyone in to an account that existed before it. Call with
 * the order row locked and payable, so the webhook and the return page completing it at once make one account and
 * one e-mail.
 */
export async function fulfilOrder(tx: Tx, order: Order, meta: ClientMeta, how: Fulfilment): Promise<PayResult> {
  const now = new Date();
  const [price] = await tx.select().from(priceSetups).where(eq(priceSetups.id, order.priceSetupId));
  const user = await payingAccount(tx, order, now);
  const moved = await applyOrderEvent(tx, order.id, 'paid', {
    paidAt: now,
    userId: user.id,
    pendingAction: null,
    failureCode: null,
    sandboxRenewal: how.sandboxRenewal ?? null,
    cardLast4: how.cardLast4 ?? order.cardLast4,
    cardBrand: how.cardBrand ?? order.cardBrand,
    payerKey: how.payerKey ?? order.payerKey,
    providerPaymentId: how.providerPaymentId ?? null,
  });
  // The caller holds the row lock and checked it payable, so this moves; anything else is a caller's bug.
  if (!moved) throw new Error(`order ${order.code} is not payable`);
  await startTrial(tx, order, user.id, price, how, now);
  await recordOrderEvent(tx, FUNNEL.paid, order.id);
  const session = user.password && how.signIn ? await createSession(tx, user.id, meta) : null;
  // The SMS guards are checked again where the SMS is queued; a refusal is recorded on the request's SMS, not thrown:
  // the payment has happened, and the buyer can share the link themselves.
  const { refusal } = await createLocationRequest(tx, {
    userId: user.id,
    e164: order.phoneE164,
    requesterName: order.requesterName,
    note: order.note,
    orderId: order.id,
    onRefusal: 'record',
    // Who paid, from which browser and address: the owner's block and cool-down follow them to a new e-mail.
    marks: { payer: how.payerKey ?? order.payerKey, device: order.browserKey, address: order.clientKey },
  });
  await queueOrderEmail(tx, order, { password: user.password, smsRefused: !!refusal, price, how, now });
  return {
    kind: 'paid',
    token: session?.token ?? null,
    email: order.email,
    phone: order.phoneE164,
    paymentCount: user.paymentCount,
  };
}
