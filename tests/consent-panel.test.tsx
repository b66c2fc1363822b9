// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { NextIntlClientProvider } from 'next-intl';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ConsentView } from '@/lib/contracts/consent';
import en from '@/messages/en.json';
import es from '@/messages/es.json';
import id from '@/messages/id.json';

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

// The page's client (lib/api/client.ts `call`): the view on a read, and each answer (`PUT` of the link) recorded.
const fakeApi = {
  call: async (name: string, options?: { body?: { action: string } }) => {
    if (name.startsWith('GET ')) {
      if (!answers.view) throw Object.assign(new Error('not found'), { status: 404, code: 10004 });
      return answers.view;
    }
    if (!name.startsWith('PUT ')) return { status: answers.view?.status };
    const body = options!.body!;
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
  moreTimeAsked: false,
  precision: 'exact',
  presets: [15, 60, 480],
};

async function show(locale: 'en' | 'es' | 'id') {
  const { ConsentPanel } = await import('@/components/share/consent-panel');
  const messages = { en, es, id }[locale];
  return render(
    <NextIntlClientProvider locale={locale} messages={messages} timeZone="UTC">
      <ConsentPanel />
    </NextIntlClientProvider>,
  );
}

/** Instagram's in-app browser on an iPhone and on Android, and Safari itself (user agents as they send them). */
const UA = {
  instagramIos:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Instagram 339.0.3.12.91 (iPhone15,2; iOS 17_5; en_US; en; scale=3.00; 1179x2556; 623244451)',
  facebookAndroid:
    'Mozilla/5.0 (Linux; Android 14; Pixel 8 Build/AP2A.240805.005; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/127.0.6533.103 Mobile Safari/537.36 [FB_IAB/FB4A;FBAV/477.0.0.49.74;]',
  safari:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
};
/** Makes the page's browser say `ua`. */
const browse = (ua: string) => vi.spyOn(navigator, 'userAgent', 'get').mockReturnValue(ua);

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
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

  it('after location was refused in Instagram’s browser, says to open the link in Safari, with Copy link', async () => {
    browse(UA.instagramIos);
    answers.view = { ...asked, locationDenied: true };
    const user = userEvent.setup();
    await show('en');
    const help = await screen.findByTestId('open-in-browser');
    expect(help.textContent).toContain('Open the link in Safari instead');
    // Not the address bar's lock, which an in-app browser does not have.
    expect(screen.queryByText(en.Consent.deniedHelp)).toBeNull();
    const link = `${location.origin}${location.pathname}?c=abc123`;
    expect((screen.getByLabelText(en.Consent.linkLabel) as HTMLInputElement).value).toBe(link);
    await user.click(screen.getByRole('button', { name: en.Consent.copyLink }));
    // user-event's stand-in for the Clipboard API holds what the page wrote.
    expect(await navigator.clipboard.readText()).toBe(link);
    expect((await screen.findByRole('status')).textContent).toBe(en.Consent.linkCopied);
  });

  it('names Chrome in Facebook’s browser on Android, in the owner’s language (es, id)', async () => {
    browse(UA.facebookAndroid);
    answers.view = { ...asked, locationDenied: true };
    await show('es');
    expect((await screen.findByTestId('open-in-browser')).textContent).toContain('Abre el enlace en Chrome');
    cleanup();
    await show('id');
    expect((await screen.findByTestId('open-in-browser')).textContent).toContain('Buka tautan ini di Chrome');
  });

  it('in a full browser, points at the lock icon next to the address', async () => {
    browse(UA.safari);
    answers.view = { ...asked, locationDenied: true };
    await show('en');
    expect(await screen.findByText(en.Consent.deniedHelp)).toBeTruthy();
    expect(screen.queryByTestId('open-in-browser')).toBeNull();
  });

  it('Share again after a stop asks first, naming who will see it and for how long; Cancel shares nothing', async () => {
    answers.view = { ...asked, status: 'stopped', sharingUntil: '2026-11-24T10:00:00Z' };
    const user = userEvent.setup();
    await show('en');
    await user.click(await screen.findByRole('button', { name: en.Consent.shareAgain }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain(
      en.Consent.shareAgainConfirm.replace('{name}', 'Ana').replace('{duration}', en.Consent.hour1),
    );
    await user.click(screen.getByRole('button', { name: en.Consent.cancel }));
    expect(answers.puts).toEqual([]);
  });

  it('a link without its code says it is not valid', async () => {
    link.code = '';
    await show('en');
    expect((await screen.findByRole('alert')).textContent).toBe(en.Consent.invalid);
  });
});
