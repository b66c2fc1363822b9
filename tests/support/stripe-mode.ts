import Stripe from 'stripe';
import { eq } from 'drizzle-orm';
import { getDb } from '@/server/db/client';
import { orders } from '@/server/db/schema';
import { uniqueEmail } from './accounts';
import { placeOrder } from './billing';
import { FakeStripe } from './fake-stripe';

// The Stripe provider pointed at the fake Stripe API, for a test file that imports this module before anything else:
// its settings are set here, at import, and the app reads settings on first use, after this.

/** The webhook signing secret the app is given, to sign test events with. */
export const STRIPE_WEBHOOK_SECRET = 'whsec_fake123';
const STRIPE_SECRET_KEY = 'sk_test_fake123';
/** This process's port for the fake Stripe API (files run one at a time, each in its own process). */
const PORT = 43000 + (process.pid % 1000);

process.env.PAYMENT_PROVIDER = 'stripe';
process.env.STRIPE_SECRET_KEY = STRIPE_SECRET_KEY;
process.env.STRIPE_WEBHOOK_SECRET = STRIPE_WEBHOOK_SECRET;
process.env.STRIPE_PUBLISHABLE_KEY = 'pk_test_fake123';
process.env.STRIPE_API_URL = `http://127.0.0.1:${PORT}`;

/** The fake Stripe API the app calls (start it in `beforeAll`, stop it in `afterAll`). */
export const fake = new FakeStripe(PORT);
/** The Stripe SDK, for test helpers such as `webhooks.generateTestHeaderString`. */
export const stripe = new Stripe(STRIPE_SECRET_KEY);

/** An order placed with the Stripe provider by `email`: its code, next URL and Checkout Session id. */
export async function stripeOrder(email = uniqueEmail('stripe')) {
  const { body } = await placeOrder({ email });
  const [order] = await (await getDb()).select().from(orders).where(eq(orders.code, body.obj.code));
  return { email, code: body.obj.code as string, next: body.obj.next as string, sessionId: order.providerSessionId! };
}
