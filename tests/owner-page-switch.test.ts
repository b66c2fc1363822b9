import { describe, expect, it } from 'vitest';
import { isOwnerPage } from '@/components/share/owner-page-switch';

// The locale layout frames the owner's consent page on its own; every other page keeps the site's header and footer.

describe('isOwnerPage', () => {
  it.each([
    '/location/',
    '/location',
    '/es/location/',
    '/id/location/',
    '/ph/location/',
    '/en/location',
    '/en-PH/location',
  ])('%s is the consent page (browser path or prerendered internal path)', (path) => {
    expect(isOwnerPage(path)).toBe(true);
  });

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
    '',
    null,
  ])('%s is not', (path) => {
    expect(isOwnerPage(path)).toBe(false);
  });
});
