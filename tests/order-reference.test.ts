import { readFileSync } from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import pg from 'pg';
import { describe, expect, it, vi } from 'vitest';
import { getDb } from '@/server/db/client';
import { orders } from '@/server/db/schema';
import { ORDER_REFERENCE } from '@/server/services/billing';
import { call } from './support/accounts';
import { emailsTo, payCard, placeOrder } from './support/billing';

// The reference draws go through this queue first, so a test can make a draw collide with a taken reference. The
// mock replaces the billing folder's inner module that orders.ts draws from (a mock names a module, it imports
// nothing: the test still imports billing through its index, the domain-folder-one-entry rule).
const draws = vi.hoisted(() => ({ queue: [] as string[] }));
vi.mock('@/server/services/billing/order-reference', async (original) => {
  const actual = await original<{ newOrderReference: () => string }>();
  return { ...actual, newOrderReference: () => draws.queue.shift() ?? actual.newOrderReference() };
});

const unique = (tag: string) => `${tag}.${Date.now()}.${Math.random().toString(36).slice(2, 7)}@example.com`;

async function orderRow(code: string) {
  const [row] = await (await getDb()).select().from(orders).where(eq(orders.code, code));
  return row;
}

describe('the order reference people read', () => {
  it('is short, readable Crockford base32 (no I, L, O, U), and the random code stays the URL key', async () => {
    const { res, body } = await placeOrder({ email: unique('ref') });
    expect(res.status).toBe(201);
    const { code, reference } = body.obj;
    expect(reference).toMatch(ORDER_REFERENCE);
    expect(reference).toHaveLength(10);
    expect(reference).not.toMatch(/[ILOU]/);
    expect(code).not.toBe(reference);
    expect((await orderRow(code)).reference).toBe(reference);
    // The reference is not a key: it finds no order where the code does.
    expect((await call('GET', `/portal/order/${encodeURIComponent(reference)}`)).status).toBe(404);
    expect((await call('GET', `/portal/order/${code}`)).status).toBe(200);
  });

  it('30 orders placed at once get 30 distinct references', async () => {
    const placed = await Promise.all(Array.from({ length: 30 }, (_, i) => placeOrder({ email: unique(`ref30-${i}`) })));
    expect(placed.map((p) => p.res.status)).toEqual(Array(30).fill(201));
    const references = placed.map((p) => p.body.obj.reference as string);
    expect(references.every((r) => ORDER_REFERENCE.test(r))).toBe(true);
    expect(new Set(references).size).toBe(30);
  });

  it('draws again when the drawn reference is taken, also with 20 orders at once meeting the same taken one', async () => {
    const first = await placeOrder({ email: unique('ref-taken') });
    const taken = first.body.obj.reference as string;
    draws.queue.push(...Array(20).fill(taken));
    const placed = await Promise.all(Array.from({ length: 20 }, (_, i) => placeOrder({ email: unique(`dup-${i}`) })));
    expect(placed.map((p) => p.res.status)).toEqual(Array(20).fill(201));
    const references = placed.map((p) => p.body.obj.reference as string);
    expect(references).not.toContain(taken);
    expect(new Set(references).size).toBe(20);
  });

  it('a repeated idempotency key still answers the first order, with its reference', async () => {
    const email = unique('ref-idem');
    const phone = '+14155550123';
    const key = `ref-idem-${Date.now()}`;
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => placeOrder({ email, phone, idempotencyKey: key })),
    );
    expect(new Set(answers.map((a) => a.body.obj.code)).size).toBe(1);
    expect(new Set(answers.map((a) => a.body.obj.reference)).size).toBe(1);
  });

  it('after payment the order view has the card scheme and last four, never the full number, and the e-mail names the reference', async () => {
    const email = unique('ref-paid');
    const { body } = await placeOrder({ email });
    expect((await payCard(body.obj.code, '4242424242424242')).status).toBe(200);
    const view = (await (await call('GET', `/portal/order/${body.obj.code}`)).json()).obj;
    expect(view).toMatchObject({
      status: 'paid',
      reference: body.obj.reference,
      card: '4242',
      cardBrand: 'visa',
      paidAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      // The status page's one button opens this request's map; the new account signs in with the e-mailed password.
      requestId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      temporaryPassword: true,
    });
    const row = await orderRow(body.obj.code);
    expect(row).toMatchObject({ cardLast4: '4242', cardBrand: 'visa' });
    expect(JSON.stringify(row)).not.toContain('4242424242424242');
    const [mail] = await emailsTo(email.toLowerCase(), 'order-credentials');
    expect(mail.body).toContain(`Order ${body.obj.reference}`);
    expect(mail.body).not.toContain(body.obj.code);
  });

  it('the billing list names each order by its reference', async () => {
    const email = unique('ref-billing');
    const { body } = await placeOrder({ email });
    const pay = await payCard(body.obj.code, '4242424242424242');
    const cookie = /(?:^|, )token=([^;]+)/.exec(pay.headers.get('set-cookie') ?? '')![1];
    const list = (await (await call('GET', '/admin/order/status', { headers: { cookie: `token=${cookie}` } })).json())
      .obj;
    expect(list.orders[0]).toMatchObject({ reference: body.obj.reference, card: '4242', cardBrand: 'visa' });
  });
});

describe('the migration that brought the reference', () => {
  it('gives every order made before it a distinct reference, then requires one', async () => {
    // A fresh database on the test server, migrated up to the step before, with orders made then.
    const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
    const name = `backfill_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;
    await admin.query(`CREATE DATABASE ${name}`);
    const url = new URL(process.env.DATABASE_URL!);
    url.pathname = `/${name}`;
    const db = new pg.Client({ connectionString: url.toString() });
    await db.connect();
    try {
      const dir = path.resolve(import.meta.dirname, '../drizzle');
      const journal = JSON.parse(readFileSync(path.join(dir, 'meta/_journal.json'), 'utf8')) as {
        entries: { tag: string }[];
      };
      const run = async (tag: string) => {
        for (const statement of readFileSync(path.join(dir, `${tag}.sql`), 'utf8').split('--> statement-breakpoint')) {
          if (statement.trim()) await db.query(statement);
        }
      };
      const tags = journal.entries.map((e) => e.tag);
      const at = tags.indexOf('0017_order_reference');
      for (const tag of tags.slice(0, at)) await run(tag);
      const { rows: price } = await db.query('select id from price_setups limit 1');
      for (let i = 0; i < 40; i++) {
        await db.query(
          `insert into orders (code, email, phone_e164, price_setup_id, amount_minor, currency, provider)
           values ($1, $2, '+14155550100', $3, 99, 'USD', 'sandbox')`,
          [`old-order-code-${i}`, `old${i}@example.com`, price[0].id],
        );
      }
      await run('0017_order_reference');
      const { rows } = await db.query<{ reference: string }>('select reference from orders');
      expect(rows).toHaveLength(40);
      expect(rows.every((r) => ORDER_REFERENCE.test(r.reference))).toBe(true);
      expect(new Set(rows.map((r) => r.reference)).size).toBe(40);
      await expect(
        db.query(
          `insert into orders (code, email, phone_e164, price_setup_id, amount_minor, currency, provider)
           values ('no-reference', 'new@example.com', '+14155550100', $1, 99, 'USD', 'sandbox')`,
          [price[0].id],
        ),
      ).rejects.toThrow(/reference/);
    } finally {
      await db.end();
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    }
  });
});
