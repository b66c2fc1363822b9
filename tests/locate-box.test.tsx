// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { NextIntlClientProvider } from 'next-intl';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LocateBox } from '@/components/locate/locate-box';
import en from '@/messages/en.json';
import es from '@/messages/es.json';

// The home page's locate box as a visitor sees it, in happy-dom (no server: `fetch` fails as it does offline, and the
// API is not needed before the first submit). Texts are read from the catalogues, so a changed message or a lost state
// fails here.

const CATALOGUES = { en, es } as const;

function show(locale: keyof typeof CATALOGUES) {
  return render(
    <NextIntlClientProvider locale={locale} messages={CATALOGUES[locale]} timeZone="UTC">
      <LocateBox />
    </NextIntlClientProvider>,
  );
}

beforeEach(() => {
  vi.stubGlobal('fetch', () => Promise.reject(new TypeError('Failed to fetch')));
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('locate box (components/locate/locate-box.tsx)', () => {
  it('opens with its title, the empty phone field, the national-number hint of the locale and the check button', () => {
    show('es');
    expect(screen.getByRole('heading', { name: es.LocateBox.title })).toBeTruthy();
    const phone = screen.getByLabelText(es.LocateBox.phoneLabel) as HTMLInputElement;
    expect(phone.value).toBe('');
    expect(phone.type).toBe('tel');
    expect(screen.getByText(es.LocateBox.phoneHint.replace('{country}', 'España'))).toBeTruthy();
    expect(screen.getByRole('button', { name: es.LocateBox.submit })).toBeTruthy();
  });

  it('opened by Buy again, starts with that number and the signed-in account’s e-mail, not empty', async () => {
    history.replaceState(null, '', '/?buy=again&phone=%2B34%20612%2034%2056%2078#top');
    document.cookie = `userInfo=${encodeURIComponent(JSON.stringify({ email: 'ana@example.com', paymentCount: 1 }))}; path=/`;
    try {
      show('en');
      const phone = screen.getByLabelText(en.LocateBox.phoneLabel) as HTMLInputElement;
      await waitFor(() => expect(phone.value).toBe('+34 612 34 56 78'));
      expect((screen.getByLabelText(en.LocateBox.emailLabel) as HTMLInputElement).value).toBe('ana@example.com');
    } finally {
      document.cookie = 'userInfo=; path=/; max-age=0';
      history.replaceState(null, '', '/');
    }
  });

  it('formats digits typed on a phone keypad as a number of the country, and names the country', async () => {
    const user = userEvent.setup();
    show('en');
    const phone = screen.getByLabelText(en.LocateBox.phoneLabel) as HTMLInputElement;
    await user.type(phone, '+4915123456781');
    await waitFor(() => expect(phone.value).toBe('+49 1512 3456781'));
    expect(await screen.findByText('Germany')).toBeTruthy();
  });

  it('keeps keypad digits of an unknown calling code as typed, and asks for + and the country code', async () => {
    const user = userEvent.setup();
    show('en');
    expect(screen.getByText(en.LocateBox.phoneHintIntl)).toBeTruthy();
    const phone = screen.getByLabelText(en.LocateBox.phoneLabel) as HTMLInputElement;
    await user.type(phone, '+999123');
    await waitFor(() => expect(phone.value).toBe('+999123'));
  });

  it('shows the missing fields in the visitor’s language on Check number, without leaving the form', async () => {
    const user = userEvent.setup();
    show('es');
    await user.click(screen.getByRole('button', { name: es.LocateBox.submit }));
    const alerts = await screen.findAllByRole('alert');
    const texts = alerts.map((a) => a.textContent);
    expect(texts).toContain(es.Validation.phoneRequired);
    expect(texts).toContain(es.Validation.termsRequired);
    expect(texts).not.toContain(en.Validation.phoneRequired);
    expect(screen.getByRole('button', { name: es.LocateBox.submit })).toBeTruthy();
  });

  it('keeps what was typed before its form arrived, and checks the number when submitted before that', async () => {
    const { container } = show('en');
    // Input events only: no focus or pointer, the touches that load the form.
    fireEvent.change(screen.getByLabelText(en.LocateBox.phoneLabel), { target: { value: '+4915123456781' } });
    fireEvent.change(screen.getByLabelText(en.LocateBox.requesterLabel), { target: { value: 'Anna' } });
    fireEvent.change(screen.getByLabelText(en.LocateBox.emailLabel), { target: { value: 'anna@example.com' } });
    fireEvent.click(screen.getByRole('checkbox'));
    fireEvent.submit(container.querySelector('form')!);
    // Valid as typed, so the number is looked up: there is no server here, and the lookup's error shows instead of
    // any field's validation message.
    const alert = await screen.findByRole('alert', {}, { timeout: 5000 });
    expect(alert.textContent).toBe(en.Api.network);
    expect(screen.getAllByRole('alert')).toHaveLength(1);
  });
});
