// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { NextIntlClientProvider } from 'next-intl';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ConsentView } from '@/lib/contracts/consent';
import en from '@/messages/en.json';
import es from '@/messages/es.json';

// The phone owner's consent panel in happy-dom. The page's address (`?c=`) and the API are stand-ins: `link.code` is
// the code in the address, `answers` what `GET /spyContent/consent/{code}` answers and what each `PUT` of an action
// turns the request into. Texts come from the catalogues.

const link = { code: 'abc123' };
const answers = { view: null as ConsentView | null, puts: [] as unknown[] };

vi.mock('next/navigation', () => ({
  useSearchParams: () => new URLSearchParams(link.code ? { c: link.code } : {}),
  usePathname: () => '/location/',
}));
vi.mock('@/components/ui/use-api', () => ({
  useApi: () => fakeApi,
}));

const fakeApi = {
  get: async () => {
    if (!answers.view) throw Object.assign(new Error('not found'), { status: 404, code: 10004 });
    return answers.view;
  },
  put: async (_path: string, body: { action: string }) => {
    answers.puts.push(body);
    if (body.action === 'decline' && answers.view) answers.view = { ...answers.view, status: 'declined' };
    return { status: answers.view?.status };
  },
};

const asked: ConsentView = {
  product: 'Chamspy',
  requester: 'a•••@example.com',
  requesterName: 'Ana',
  facts: { newAccount: false, since: '2026-01-01T00:00:00Z', requests: 1, reported: 0 },
  note: null,
  status: 'opened',
  reported: false,
  ended: null,
  withdrawn: false,
  locationDenied: false,
  expiresAt: '2099-01-01T00:00:00Z',
  sharingUntil: null,
  presets: [15, 60, 480],
};

async function show(locale: 'en' | 'es') {
  const { ConsentPanel } = await import('@/components/share/consent-panel');
  const messages = { en, es }[locale];
  return render(
    <NextIntlClientProvider locale={locale} messages={messages} timeZone="UTC">
      <ConsentPanel />
    </NextIntlClientProvider>,
  );
}

afterEach(() => {
  cleanup();
  link.code = 'abc123';
  answers.view = null;
  answers.puts = [];
});

describe('consent panel (components/share/consent-panel.tsx)', () => {
  it('asks: who asks by name, with Share and Decline side by side', async () => {
    answers.view = asked;
    await show('en');
    expect(
      await screen.findByText(en.Consent.whoNamed.replace('{name}', 'Ana').replace('{product}', 'Chamspy')),
    ).toBeTruthy();
    expect(screen.getByRole('button', { name: en.Consent.share })).toBeTruthy();
    expect(screen.getByRole('button', { name: en.Consent.decline })).toBeTruthy();
  });

  it('after Decline says, in the owner’s language, that nothing was shared, and offers no Share', async () => {
    answers.view = asked;
    const user = userEvent.setup();
    await show('es');
    await user.click(await screen.findByRole('button', { name: es.Consent.decline }));
    expect(await screen.findByText(es.Consent.declined, { exact: false })).toBeTruthy();
    expect(answers.puts).toContainEqual({ action: 'decline' });
    expect(screen.queryByRole('button', { name: es.Consent.share })).toBeNull();
  });

  it('a link without its code says it is not valid', async () => {
    link.code = '';
    await show('en');
    expect((await screen.findByRole('alert')).textContent).toBe(en.Consent.invalid);
  });
});
