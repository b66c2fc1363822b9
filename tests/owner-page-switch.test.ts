import { describe, expect, it } from 'vitest';
import { isOwnerPage } from '@/components/share/owner-page-switch';

// The locale layout frames the owner's pages (consent page, safety centre) on their own; every other page keeps the site's header and footer.

describe('isOwnerPage', () => {
  it.each([
    '/location/',
    '/location',
    '/es/location/',
    '/id/location/',
    '/ph/location/',
    '/en/location',
    '/en-PH/location',
    '/safety/',
    '/es/safety/',
    '/ph/safety/',
    '/en-PH/safety',
  ])(
    '%s is an owner page: the consent page or the safety centre (browser path or prerendered internal path)',
    (path) => {
      expect(isOwnerPage(path)).toBe(true);
    },
  );

  it.each([
    '/',
    '/es/',
    '/locate/',
    '/es/locate/',
    '/phone-locate/',
    '/reveal-location/',
    '/getLocation/',
    '/dashboard/locations/',
    '/xx/location/',
    '/location/extra/',
    '/safety/extra/',
    '',
    null,
  ])('%s is not', (path) => {
    expect(isOwnerPage(path)).toBe(false);
  });
});
