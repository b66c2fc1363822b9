import 'server-only';
import Stripe from 'stripe';
import { env } from '../env';

let cached: { key: string; client: Stripe } | undefined;

/**
 * The Stripe client (stripe-node), built from STRIPE_SECRET_KEY. STRIPE_API_URL points it at another API host
 * (stripe-mock or a test double) through the SDK's `host`, `port` and `protocol` options. One network retry with
 * the SDK's own idempotency keys (stripe-node README, "Network retries").
 */
export function stripeClient(): Stripe {
  const e = env();
  if (!e.STRIPE_SECRET_KEY) throw new Error('STRIPE_SECRET_KEY is not set');
  const key = `${e.STRIPE_SECRET_KEY}|${e.STRIPE_API_URL ?? ''}`;
  if (cached?.key !== key) {
    const url = e.STRIPE_API_URL ? new URL(e.STRIPE_API_URL) : null;
    const client = new Stripe(e.STRIPE_SECRET_KEY, {
      maxNetworkRetries: 1,
      timeout: 20_000,
      telemetry: false,
      ...(url
        ? {
            host: url.hostname,
            port: url.port || undefined,
            protocol: url.protocol.replace(':', '') as 'http' | 'https',
          }
        : {}),
    });
    cached = { key, client };
  }
  return cached.client;
}

/** Our subscription status for a Stripe subscription status (Stripe Billing docs, "Subscription statuses"). */
export function statusFromStripe(status: Stripe.Subscription.Status): 'trialing' | 'active' | 'past_due' | 'canceled' {
  switch (status) {
    case 'trialing':
      return 'trialing';
    case 'active':
      return 'active';
    case 'canceled':
    case 'incomplete_expired':
      return 'canceled';
    default:
      // past_due, unpaid, incomplete, paused: no access until a payment succeeds.
      return 'past_due';
  }
}

/** The end of a Stripe subscription's current period (on its items since API 2025-03-31), as a Date. */
export function periodEndOf(sub: Stripe.Subscription): Date {
  const ends = sub.items.data.map((i) => i.current_period_end).filter((n): n is number => typeof n === 'number');
  const end = ends.length ? Math.min(...ends) : (sub.trial_end ?? sub.created);
  return new Date(end * 1000);
}

/** When a Stripe subscription will end because it was cancelled (`cancel_at` or `cancel_at_period_end`), else null. */
export function cancelAtOf(sub: Stripe.Subscription): Date | null {
  if (sub.cancel_at) return new Date(sub.cancel_at * 1000);
  return sub.cancel_at_period_end ? periodEndOf(sub) : null;
}
