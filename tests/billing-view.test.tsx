// @vitest-environment happy-dom
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { NextIntlClientProvider } from 'next-intl';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { BillingOrder, BillingView, RefundInfo } from '@/lib/contracts/billing';
import en from '@/messages/en.json';

// Billing in happy-dom (components/dashboard/billing-view.tsx). The API is a stand-in: `answers.view` is what
// `GET /admin/order/status` answers, `answers.detail` what `POST /admin/order/refundDetail` answers. The server side of
// both (the refusal's words, the withdrawal fields) is tested against PostgreSQL in tests/withdrawal.test.ts.

const answers = { view: null as BillingView | null, detail: null as RefundInfo | null };

vi.mock('next/navigation', () => ({
  useSearchParams: () => new URLSearchParams(),
  usePathname: () => '/dashboard/billing/',
}));
vi.mock('@/components/ui/use-api', () => ({ useApi: () => fakeApi }));

// The page's client (lib/api/client.ts `call`): reads answer the view, posts the refund detail, the cancel nothing.
const fakeApi = {
  call: async (name: string) =>
    name.startsWith('GET ') ? answers.view : name.startsWith('POST ') ? answers.detail : { cancelAt: [] },
};

const order: BillingOrder = {
  code: 'order-code-0123456789',
  reference: 'CH-7K4M-2Q',
  phone: '+14155552671',
  status: 'paid',
  amount: 'US$0.99',
  amountMinor: 99,
  currency: 'USD',
  method: 'card',
  card: '4242',
  cardBrand: 'visa',
  createdAt: '2026-11-01T10:00:00Z',
  paidAt: '2026-11-01T10:00:00Z',
  refundReason: null,
  withdrawable: true,
  withdrawn: null,
};

const subscription = {
  status: 'trialing' as const,
  currentPeriodEnd: '2026-11-02T10:00:00Z',
  cancelAt: null,
  nextBillingAt: '2026-11-02T10:00:00Z',
  monthlyAmount: 'US$49.99',
  geolocations: 10,
  orderCode: order.code,
};

async function show() {
  const { BillingView } = await import('@/components/dashboard/billing-view');
  return render(
    <NextIntlClientProvider locale="en" messages={en} timeZone="UTC">
      <BillingView />
    </NextIntlClientProvider>,
  );
}

afterEach(cleanup);

describe('/dashboard/billing', () => {
  it('a refused refund says what a withdrawal still gives back, and its button goes', async () => {
    answers.view = { orders: [order], subscriptions: [subscription] };
    const words =
      'A location was already shared for this subscription, so it is not refunded on request. You can still withdraw from the contract until 15 November 2026 at 10:00 UTC: it ends at once and you get back US$0.50 of the US$0.99 you paid, the unused part of the current period. Use “Withdraw from contract here” below.';
    answers.detail = {
      eligible: false,
      reason: 'service_performed',
      amount: 'US$0.99',
      amountMinor: 99,
      deadline: '2026-11-15T10:00:00Z',
      businessDays: '7-10',
      method: 'card',
      message: words,
    };
    await show();
    await userEvent.click(await screen.findByRole('button', { name: 'Request a refund' }));
    expect((await screen.findByTestId('billing-notice')).textContent).toContain(words);
    expect(screen.queryByRole('button', { name: 'Request a refund' })).toBeNull();
    // The withdrawal the refusal points to is still offered.
    expect(
      within(screen.getByTestId('withdraw')).getByRole('link', { name: 'Withdraw from contract here' }),
    ).toBeTruthy();
  });

  it('after a withdrawal: "Withdrawn — refunded US$0.50", no refund button, no offer to withdraw', async () => {
    answers.view = {
      orders: [
        {
          ...order,
          status: 'refunded',
          refundReason: 'withdrawal',
          withdrawable: false,
          withdrawn: { at: '2026-11-01T16:00:00Z', refund: 'US$0.50', refundMinor: 50 },
        },
      ],
      subscriptions: [{ ...subscription, status: 'canceled', nextBillingAt: null }],
    };
    await show();
    expect((await screen.findByTestId('order-status')).textContent).toBe('Withdrawn — refunded US$0.50');
    expect(screen.queryByTestId('withdraw')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Request a refund' })).toBeNull();
  });

  it('a withdrawal that refunded nothing leaves the order paid, and still offers no refund', async () => {
    answers.view = {
      orders: [
        { ...order, withdrawable: false, withdrawn: { at: '2026-11-02T11:00:00Z', refund: 'US$0.00', refundMinor: 0 } },
      ],
      subscriptions: [{ ...subscription, status: 'canceled', nextBillingAt: null }],
    };
    await show();
    expect((await screen.findByTestId('order-status')).textContent).toBe(
      'Withdrawn — nothing refunded (the period paid for had been used)',
    );
    expect(screen.queryByRole('button', { name: 'Request a refund' })).toBeNull();
    expect(screen.queryByTestId('withdraw')).toBeNull();
  });
});
