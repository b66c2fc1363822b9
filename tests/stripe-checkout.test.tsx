// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { NextIntlClientProvider } from 'next-intl';
import { StrictMode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { OrderView } from '@/lib/contracts/orders';
import { StripeCheckout } from '@/components/payment/stripe-checkout';
import en from '@/messages/en.json';
import id from '@/messages/id.json';

// Stripe's embedded checkout on our checkout page, in happy-dom. Stripe.js cannot load here (no network, and it is
// Stripe's code), so `loadStripe` stands in: it records the client secret the page mounts with and where. The API
// answers through the page's own client (`useApi`), whose `call` stands in for the server.

const stripe = vi.hoisted(() => ({
  mounts: [] as { clientSecret: string; into: HTMLElement }[],
  destroyed: 0,
  keys: [] as string[],
  fail: false,
  live: false,
}));
vi.mock('@stripe/stripe-js/pure', () => ({
  loadStripe: async (key: string) => {
    stripe.keys.push(key);
    if (stripe.fail) throw new Error('Failed to load Stripe.js');
    return {
      // As Stripe.js: one embedded checkout per page; creating a second while one lives throws.
      createEmbeddedCheckoutPage: async ({ clientSecret }: { clientSecret: string }) => {
        if (stripe.live) throw new Error('You cannot have multiple embedded checkout items.');
        stripe.live = true;
        return {
          mount: (into: HTMLElement) => stripe.mounts.push({ clientSecret, into }),
          destroy: () => {
            stripe.live = false;
            stripe.destroyed += 1;
          },
          unmount: () => {},
        };
      },
    };
  },
}));
const answers = vi.hoisted(() => ({ embedded: null as unknown, error: null as unknown, calls: [] as string[] }));
vi.mock('@/components/ui/use-api', () => {
  // One client for every render, as the real hook's (memoized per locale).
  const client = {
    call: async (name: string, options: { params: { code: string } }) => {
      answers.calls.push(`${name.slice(4).replace('{code}', options.params.code)}`);
      if (answers.error) throw answers.error;
      return answers.embedded;
    },
  };
  return { useApi: () => client };
});

const order = {
  code: 'ord_0123456789abcdef',
  provider: 'stripe',
  amount: '$0.99',
  monthlyAmount: '$49.99',
} as unknown as OrderView;

/** The checkout under React's StrictMode, which runs each effect twice as `next dev` does. */
function show(locale: 'en' | 'id', onClosed = () => {}) {
  return render(
    <StrictMode>
      <NextIntlClientProvider locale={locale} messages={{ en, id }[locale]} timeZone="UTC">
        <StripeCheckout order={order} onClosed={onClosed} />
      </NextIntlClientProvider>
    </StrictMode>,
  );
}

afterEach(() => {
  cleanup();
  Object.assign(stripe, { mounts: [], destroyed: 0, keys: [], fail: false, live: false });
  Object.assign(answers, { embedded: null, error: null, calls: [] });
});

describe('embedded Stripe checkout (components/payment/stripe-checkout.tsx)', () => {
  it("mounts Stripe's checkout with the order's client secret and key, under the price line", async () => {
    answers.embedded = { clientSecret: 'cs_test_1_secret_x', publishableKey: 'pk_test_1' };
    show('en');
    expect(screen.getByText(en.Checkout.stripeLoading)).toBeTruthy();
    await vi.waitFor(() => expect(stripe.mounts).toHaveLength(1));
    expect(answers.calls).toEqual([`/portal/order/${order.code}/embeddedCheckout`]);
    expect(stripe.keys).toEqual(['pk_test_1']);
    expect(stripe.mounts[0].clientSecret).toBe('cs_test_1_secret_x');
    expect(stripe.mounts[0].into).toBe(screen.getByTestId('stripe-checkout'));
    expect(screen.queryByText(en.Checkout.stripeLoading)).toBeNull();
    expect(screen.getByText('$0.99 for 24 hours, then $49.99 per month.', { exact: false })).toBeTruthy();
  });

  it('destroys the checkout when the page is left (Stripe allows one per page)', async () => {
    answers.embedded = { clientSecret: 'cs_test_2_secret_x', publishableKey: 'pk_test_1' };
    const view = show('en');
    await vi.waitFor(() => expect(stripe.mounts).toHaveLength(1));
    view.unmount();
    expect(stripe.destroyed).toBe(1);
  });

  it('when Stripe.js cannot load, says in the page language that nothing was charged, and Try again mounts it', async () => {
    answers.embedded = { clientSecret: 'cs_test_3_secret_x', publishableKey: 'pk_test_1' };
    stripe.fail = true;
    show('id');
    expect((await screen.findByRole('alert')).textContent).toContain(id.Checkout.stripeFailed);
    stripe.fail = false;
    await userEvent.setup().click(screen.getByRole('button', { name: id.Checkout.retry }));
    await vi.waitFor(() => expect(stripe.mounts).toHaveLength(1));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('an order no longer payable (409) hands over to the status page instead of a form', async () => {
    answers.error = Object.assign(new Error('This order can no longer be paid.'), { status: 409 });
    const onClosed = vi.fn();
    show('en', onClosed);
    await vi.waitFor(() => expect(onClosed).toHaveBeenCalledTimes(1));
    expect(stripe.mounts).toHaveLength(0);
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
