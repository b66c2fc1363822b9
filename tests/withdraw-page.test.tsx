// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { NextIntlClientProvider } from 'next-intl';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Acknowledgement, ContractView, WithdrawLink } from '@/lib/contracts/withdraw';
import en from '@/messages/en.json';

// The withdrawal page opened from an e-mailed link, in happy-dom. The address (`?token=`) and the API are stand-ins:
// `answers.link` is what `GET /portal/withdraw/link/{token}` answers, `answers.ack` what the confirmation answers.
// A link ends when used (services/billing/withdrawal-links.ts `withdrawLinkState`): the acknowledgement stays on screen right after
// confirming, and the link opened again later says only when the withdrawal was completed.

const answers = { link: null as WithdrawLink | null, ack: null as Acknowledgement | null, posts: 0 };

vi.mock('next/navigation', () => ({
  useSearchParams: () => new URLSearchParams({ token: 't'.repeat(43) }),
  usePathname: () => '/withdraw/',
}));
vi.mock('@/components/ui/use-api', () => ({ useApi: () => fakeApi }));

const fakeApi = {
  call: async (name: string) => (name.startsWith('GET ') ? answers.link : confirm()),
};

async function confirm() {
  answers.posts += 1;
  return answers.ack;
}

const contract: ContractView = {
  code: 'order-code-0123456789',
  reference: 'CH-7K4M-2Q',
  product: 'Chamspy',
  phone: '+34612345678',
  paidAt: '2026-11-01T10:00:00Z',
  trial: '€0.99',
  monthly: '€29.99',
  method: 'card',
  subscription: { status: 'trialing', currentPeriodEnd: '2026-11-02T10:00:00Z' },
  state: 'open',
  deadline: '2026-11-15T10:00:00Z',
  rule: 'full',
  paid: '€0.99',
  paidMinor: 99,
  refund: '€0.99',
  refundMinor: 99,
  currency: 'EUR',
  withdrawal: null,
};

async function show() {
  const { WithdrawFlow } = await import('@/components/billing/withdraw-flow');
  return render(
    <NextIntlClientProvider locale="en" messages={en} timeZone="UTC">
      <WithdrawFlow />
    </NextIntlClientProvider>,
  );
}

/** The acknowledgement of a full refund of `contract` on 3 November 2026, 10:00 UTC, with `over` laid on top. */
function acknowledgement(over: Partial<Acknowledgement> = {}): Acknowledgement {
  return {
    reference: contract.reference,
    product: 'Chamspy',
    at: '2026-11-03T10:00:00Z',
    atUtc: '3 November 2026 at 10:00:00 UTC',
    atLocal: null,
    timeZone: null,
    rule: 'full',
    refund: '€0.99',
    refundMinor: 99,
    method: 'card',
    repeated: false,
    ...over,
  };
}

afterEach(() => {
  cleanup();
  answers.posts = 0;
});

describe('/withdraw?token= (an e-mailed link)', () => {
  it('keeps the acknowledgement visible right after confirming', async () => {
    answers.link = { state: 'usable', contracts: [contract], completedAt: null };
    answers.ack = acknowledgement();
    await show();
    await userEvent.click(await screen.findByRole('button', { name: 'Confirm withdrawal' }));
    const done = await screen.findByTestId('withdraw-done');
    expect(done.textContent).toContain(`order ${contract.reference}`);
    expect(done.textContent).toContain('3 November 2026 at 10:00:00 UTC');
    expect(answers.posts).toBe(1);
  });

  it('on a phone, brings the acknowledgement with its date and time into view after Confirm, and focuses it', async () => {
    answers.link = { state: 'usable', contracts: [contract], completedAt: null };
    answers.ack = acknowledgement({
      atLocal: '3 November 2026 at 11:00:00 CET (Europe/Madrid)',
      timeZone: 'Europe/Madrid',
    });
    // Confirm sits below the contract; what replaces it starts higher up. Where the page is scrolled to is recorded.
    const scrolled: Element[] = [];
    const scroll = vi.spyOn(Element.prototype, 'scrollIntoView').mockImplementation(function (this: Element) {
      scrolled.push(this);
    });
    try {
      await show();
      await userEvent.click(await screen.findByRole('button', { name: 'Confirm withdrawal' }));
      const done = await screen.findByTestId('withdraw-done');
      await vi.waitFor(() => expect(scrolled.length).toBeGreaterThan(0));
      const target = scrolled.at(-1)!;
      // The element scrolled to starts the acknowledgement: its title, then the date and time.
      expect(target.contains(done)).toBe(true);
      expect(target.querySelector('h1')?.textContent).toBe('Withdrawal received');
      expect(done.textContent).toContain('Date and time: 3 November 2026 at 10:00:00 UTC');
      expect(document.activeElement).toBe(done);
    } finally {
      scroll.mockRestore();
    }
  });

  it('opened again once used, says only when the withdrawal was completed: no number, no order', async () => {
    answers.link = { state: 'used', contracts: [], completedAt: '2026-11-03T10:00:00Z' };
    const { container } = await show();
    const used = await screen.findByTestId('withdraw-used');
    expect(used.textContent).toMatch(/^This withdrawal was completed on .*2026/);
    expect(screen.queryByTestId('withdraw-contract')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Confirm withdrawal' })).toBeNull();
    for (const secret of [contract.reference, '612', contract.code]) {
      expect(container.textContent).not.toContain(secret);
    }
  });
});
