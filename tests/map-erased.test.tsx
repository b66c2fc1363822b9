// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import { NextIntlClientProvider } from 'next-intl';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LocationTrace } from '@/lib/contracts/locations';
import en from '@/messages/en.json';

// The buyer's map (components/dashboard/map-view.tsx) in happy-dom, its trace a stand-in for what
// `GET /gpsTrace/phoneLocation/{id}` and its live stream give (use-live-trace.ts). The API's `erased` is tested against
// PostgreSQL in tests/api-locate.test.ts.

const state = { trace: null as LocationTrace | null };

vi.mock('next/navigation', () => ({
  useSearchParams: () => new URLSearchParams({ id: '2f9a3c1e-0000-4000-8000-000000000001' }),
  usePathname: () => '/map/',
}));
vi.mock('@/components/ui/use-api', () => ({ useApi: () => ({ call: async () => state.trace }) }));
vi.mock('@/components/dashboard/use-live-trace', () => ({
  useLiveTrace: () => ({ trace: state.trace, transport: 'stream' }),
}));

const stopped: LocationTrace = {
  id: '2f9a3c1e-0000-4000-8000-000000000001',
  phone: '+34612345678',
  status: 'stopped',
  locationDenied: false,
  withdrawn: false,
  erased: false,
  createdAt: '2026-11-01T10:00:00Z',
  ownerSeenAt: '2026-11-01T10:05:00Z',
  liveSignal: null,
  sharingUntil: '2026-11-01T10:06:00Z',
  moreTime: null,
  ended: 'owner',
  positions: [],
  place: null,
};

async function show() {
  const { MapView } = await import('@/components/dashboard/map-view');
  return render(
    <NextIntlClientProvider locale="en" messages={en} timeZone="UTC">
      <MapView />
    </NextIntlClientProvider>,
  );
}

afterEach(cleanup);

describe('/map?id= after the owner deleted what they had shared', () => {
  it('says the owner removed it, not "Geographic location not found"', async () => {
    state.trace = { ...stopped, erased: true };
    await show();
    const status = await screen.findByRole('status');
    expect(status.textContent).toBe(
      'The owner deleted what they had shared, in their safety centre. Nothing of it is kept, so there is no position to show.',
    );
    expect(document.body.textContent).not.toContain('Geographic location not found');
  });

  it('a stopped share that kept nothing for another reason still reads as before', async () => {
    state.trace = stopped;
    await show();
    expect((await screen.findByRole('status')).textContent).toBe('Geographic location not found');
  });
});
