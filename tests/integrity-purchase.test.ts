import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { getDb } from '@/server/db/client';
import { orders, sessions, users } from '@/server/db/schema';
import { buyAccount, call, latestEmail, uniqueEmail } from './support/accounts';
import { payCard, placeOrder } from './support/billing';

// A purchase never signs anyone in to an account that existed before it.

async function sessionCount(email: string) {
  const db = await getDb();
  const [user] = await db.select().from(users).where(eq(users.email, email));
  return { user, count: (await db.select().from(sessions).where(eq(sessions.userId, user.id))).length };
}

describe('purchases and existing accounts', () => {
  it('refuses an order for a registered e-mail from a visitor, with docs/rules.md#errors wording and a reason for the sign-in link', async () => {
    const victim = await buyAccount(uniqueEmail('victim'));
    for (const locale of ['en', 'es']) {
      const { res, body } = await placeOrder(
        { email: victim.email.toUpperCase(), locale },
        { 'accept-language': locale },
      );
      expect(res.status).toBe(409);
      expect(body.reason).toBe('email_registered');
      expect(body.msg).toBe(
        locale === 'en'
          ? 'The email address you entered is already registered!'
          : '¡La dirección de correo que has introducido ya está registrada!',
      );
    }
  });

  it('does not charge, nor sign in, an order whose e-mail became an account after it was made (card, 3-D Secure, wallet)', async () => {
    const email = uniqueEmail('late');
    const card = await placeOrder({ email });
    const threeDs = await placeOrder({ email });
    const wallet = await placeOrder({ email, method: 'wallet' });
    expect([card.res.status, threeDs.res.status, wallet.res.status]).toEqual([201, 201, 201]);
    // The e-mail's real owner buys first.
    await buyAccount(email);
    const before = await sessionCount(email);

    const attempts = [
      await payCard(card.body.obj.code, '4242424242424242'),
      await payCard(threeDs.body.obj.code, '4000002760003184'),
      await call('POST', `/portal/order/${wallet.body.obj.code}/sandboxWallet`, { body: { approve: true } }),
    ];
    for (const res of attempts) {
      expect(res.status).toBe(409);
      expect(res.headers.get('set-cookie')).toBeNull();
      expect((await res.json()).reason).toBe('email_registered');
    }
    const db = await getDb();
    for (const code of [card.body.obj.code, threeDs.body.obj.code, wallet.body.obj.code]) {
      const [order] = await db.select().from(orders).where(eq(orders.code, code));
      expect(order.status).toBe('pending');
      expect(order.userId).toBeNull();
    }
    const after = await sessionCount(email);
    expect(after.count).toBe(before.count);
    expect(after.user.paymentCount).toBe(1);
  });

  it('attaches a signed-in subscriber’s order to their account and opens no new session', async () => {
    const buyer = await buyAccount(uniqueEmail('again'));
    const cookie = `token=${buyer.token}`;
    const before = await sessionCount(buyer.email);
    const { res, body } = await placeOrder({ email: buyer.email }, { cookie });
    expect(res.status).toBe(201);
    const pay = await call('POST', `/portal/order/${body.obj.code}/sandboxPay`, {
      body: { cardNumber: '4242424242424242', expiry: '12/34', cvc: '123', zip: '10001' },
      headers: { cookie },
    });
    expect(pay.status).toBe(200);
    expect(pay.headers.get('set-cookie')).toBeNull();
    const after = await sessionCount(buyer.email);
    expect(after.count).toBe(before.count);
    expect(after.user.paymentCount).toBe(2);
    const [order] = await (await getDb()).select().from(orders).where(eq(orders.code, body.obj.code));
    expect(order.userId).toBe(after.user.id);
    // The order e-mail carries no new password: the account keeps the one it has.
    const mail = await latestEmail(buyer.email);
    expect(mail.template).toBe('order-credentials');
    expect(mail.body).not.toMatch(/Temporary password/);
  });

  it('a session of another account does not unlock an order for a registered e-mail', async () => {
    const victim = await buyAccount(uniqueEmail('victim2'));
    const attacker = await buyAccount(uniqueEmail('attacker'));
    const { res } = await placeOrder({ email: victim.email }, { cookie: `token=${attacker.token}` });
    expect(res.status).toBe(409);
  });

  it('20 orders for one new e-mail paid at once: one account, one session, and no payment signs in another payer', async () => {
    const email = uniqueEmail('together');
    const placed = [];
    for (let i = 0; i < 20; i++) placed.push(await placeOrder({ email }));
    expect(placed.every((p) => p.res.status === 201)).toBe(true);
    const paid = await Promise.all(placed.map((p) => payCard(p.body.obj.code, '4242424242424242')));
    // Each payment either went through or, when the account already existed at its turn, was refused uncharged.
    const statuses = paid.map((r) => r.status);
    expect(statuses.every((s) => s === 200 || s === 409)).toBe(true);
    // Only the payment that created the account signs its payer in.
    expect(paid.filter((r) => r.headers.get('set-cookie')?.includes('token='))).toHaveLength(1);
    const { user, count } = await sessionCount(email);
    expect(count).toBe(1);
    expect(user.paymentCount).toBe(statuses.filter((s) => s === 200).length);
    const accounts = await (await getDb()).select().from(users).where(eq(users.email, email));
    expect(accounts).toHaveLength(1);
  });
});
