// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { NextIntlClientProvider } from 'next-intl';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ApiClient } from '@/lib/api/client';
import type { OfferView } from '@/lib/contracts/orders';
import { PayStep } from '@/components/locate/pay-step';
import en from '@/messages/en.json';
import es from '@/messages/es.json';

// The pay step of the locate flow in happy-dom, with the page's API client (useApi) standing in for the server: the
// offer it answers and the order's answer (an error with the API's detail). Texts come from the catalogues.

const router = vi.hoisted(() => ({ pushed: [] as string[] }));
vi.mock('next/navigation', () => ({ useRouter: () => ({ push: (to: string) => router.pushed.push(to) }) }));
const page = vi.hoisted(() => ({ client: null as unknown }));
vi.mock('@/components/ui/use-api', () => ({ useApi: () => page.client }));

const offer: OfferView = {
  offer: { id: 'offer-1', percentOff: 50, expiresAt: null, rule: 'first_order' },
  firstOrder: 'eligible',
  serverNow: '2026-11-24T00:00:00Z',
  billingDescriptor: 'CHAMSPY DEMO',
  plan: {
    id: 'plan-1',
    currency: 'EUR',
    isTryout: true,
    trialPrice: '0.49',
    presentPrice: '0.49',
    sign: '€',
    integer: '0',
    decimal: '49',
    trialPriceMinor: 49,
    listTrialPriceMinor: 99,
    monthlyPriceMinor: 4999,
    trialHours: 24,
    geolocations: 100,
    trialText: '€0.49',
    listTrialText: '€0.99',
    monthlyText: '€49.99',
    offerPercentOff: 50,
  } as OfferView['plan'],
};

/**
 * An API client answering the offer with `view` (or failing with `offerError`) and the order with `orderError`, or
 * with `created` (the order's view and `next`).
 */
function api(
  view: OfferView | null,
  errors: { offerError?: Error; orderError?: Error } = {},
  created?: { provider: 'sandbox' | 'stripe'; next: string },
) {
  const client = {
    call: async (name: string) => {
      if (name === 'POST /portal/priceSetup/offer') {
        if (errors.offerError) throw errors.offerError;
        return view;
      }
      if (created) return created;
      throw errors.orderError ?? new Error('no order here');
    },
  } as unknown as ApiClient;
  return client;
}

function show(locale: 'en' | 'es', client: ApiClient) {
  page.client = client;
  return render(
    <NextIntlClientProvider locale={locale} messages={{ en, es }[locale]} timeZone="UTC">
      <PayStep email="buyer@example.com" phone="+34612345678" requesterName="Ana" />
    </NextIntlClientProvider>,
  );
}

afterEach(() => {
  cleanup();
  router.pushed.length = 0;
  vi.restoreAllMocks();
});

describe('pay step (components/locate/pay-step.tsx)', () => {
  it('states the first-order discount with its rule and no deadline, and Pay names the discounted price', async () => {
    show('en', api(offer));
    expect(
      await screen.findByText(en.Pay.firstOrderTitle.replace('{price}', '€0.49').replace('{list}', '€0.99')),
    ).toBeTruthy();
    expect(screen.getByText(en.Pay.firstOrderRule.replace('{percent}', '50'))).toBeTruthy();
    expect(screen.getByRole('button', { name: en.Pay.pay.replace('{amount}', '€0.49') })).toBeTruthy();
    expect(screen.getByRole('radio', { name: en.Pay.card })).toBeTruthy();
    expect(screen.getByRole('radio', { name: en.Pay.wallet })).toBeTruthy();
  });

  it('when the discount went to another order first, shows the server’s message and the regular price', async () => {
    const used = Object.assign(new Error('Descuento ya usado'), { detail: { reason: 'discount_used' } });
    const user = userEvent.setup();
    show('es', api(offer, { orderError: used }));
    await user.click(await screen.findByRole('button', { name: es.Pay.pay.replace('{amount}', '€0.49') }));
    expect((await screen.findByRole('alert')).textContent).toContain('Descuento ya usado');
    expect(screen.getByText(es.Pay.offerUsed)).toBeTruthy();
    expect(screen.getByRole('button', { name: es.Pay.pay.replace('{amount}', '€0.99') })).toBeTruthy();
  });

  it('tells a wallet payer where the wallet shows the payment, not about a card statement (es)', async () => {
    const user = userEvent.setup();
    show('es', api(offer));
    const line = await screen.findByTestId('descriptor');
    expect(line.textContent).toBe(es.Pay.descriptor.replace('{descriptor}', 'CHAMSPY DEMO'));
    await user.click(screen.getByRole('radio', { name: es.Pay.wallet }));
    expect(line.textContent).toBe(es.Pay.descriptorWallet.replace('{descriptor}', 'CHAMSPY DEMO'));
    expect(line.textContent).not.toMatch(/tarjeta/);
  });

  it('shows why the offer could not be loaded', async () => {
    show('en', api(null, { offerError: new Error('Network problem, try again') }));
    expect((await screen.findByRole('alert')).textContent).toBe('Network problem, try again');
  });

  it("loads a Stripe order's checkout page in full (its own CSP lets Stripe.js run); a sandbox one client-side", async () => {
    const user = userEvent.setup();
    const assign = vi.spyOn(window.location, 'assign').mockImplementation(() => {});
    show('en', api(offer, {}, { provider: 'stripe', next: '/checkout/?order=abc' }));
    await user.click(await screen.findByRole('button', { name: en.Pay.pay.replace('{amount}', '€0.49') }));
    await vi.waitFor(() => expect(assign).toHaveBeenCalledWith('/checkout/?order=abc'));
    expect(router.pushed).toEqual([]);
    cleanup();

    show('en', api(offer, {}, { provider: 'sandbox', next: '/checkout/?order=def' }));
    await user.click(await screen.findByRole('button', { name: en.Pay.pay.replace('{amount}', '€0.49') }));
    await vi.waitFor(() => expect(router.pushed).toEqual(['/checkout/?order=def']));
    expect(assign).toHaveBeenCalledTimes(1);
  });
});
