// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import { NextIntlClientProvider } from 'next-intl';
import { afterEach, describe, expect, it } from 'vitest';
import type { OrderView } from '@/lib/contracts/orders';
import { OrderFacts } from '@/components/payment/order-facts';
import en from '@/messages/en.json';
import es from '@/messages/es.json';
import id from '@/messages/id.json';

// The facts line under the pay pages (card page, wallet page, status page): a wallet payer is not told about a card
// statement they do not have.

const order = { billingDescriptor: 'CHAMSPY DEMO', reference: 'CH-7K4M-2Q', supportEmail: 'help@example.com' };
const catalogues = { en, es, id };

afterEach(cleanup);

describe('order facts (components/payment/order-facts.tsx)', () => {
  for (const locale of ['en', 'es', 'id'] as const) {
    it(`speaks of the card for a card order and of the wallet for a wallet order (${locale})`, () => {
      const messages = catalogues[locale];
      const fill = (text: string) =>
        text
          .replace('{descriptor}', 'CHAMSPY DEMO')
          .replace('{code}', 'CH-7K4M-2Q')
          .replace('{support}', 'help@example.com');
      for (const method of ['card', 'wallet'] as const) {
        render(
          <NextIntlClientProvider locale={locale} messages={messages} timeZone="UTC">
            <OrderFacts order={{ ...order, method } as OrderView} />
          </NextIntlClientProvider>,
        );
        const key = method === 'wallet' ? 'factsWallet' : 'facts';
        expect(screen.getByText(fill(messages.Checkout[key]))).toBeTruthy();
        cleanup();
      }
      expect(messages.Checkout.factsWallet).not.toBe(messages.Checkout.facts);
    });
  }
});
