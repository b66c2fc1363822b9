import { NextIntlClientProvider } from 'next-intl';
import { getMessages } from 'next-intl/server';
import type { ReactNode } from 'react';
import type { Messages } from '@/i18n/messages';

/**
 * The `Api` messages client code reads itself (use-api and use-public-api's network message, pay-status, the locate
 * box's e-mail check); every other API text comes from the server.
 */
const CLIENT_API_KEYS = ['network', 'declined', 'emailRegistered'] as const;

/**
 * Hands client components only the message namespaces they use (plus `Validation` for form errors and the few `Api`
 * messages of CLIENT_API_KEYS), so a page's HTML and JavaScript do not carry the whole catalogue (the
 * messages are written into the page's RSC payload).
 */
export async function ClientMessages({
  namespaces,
  validation,
  children,
}: {
  namespaces: (keyof Messages)[];
  /** Only the `Validation` messages whose keys start with one of these (e.g. `phone`); all of them by default. */
  validation?: readonly string[];
  children: ReactNode;
}) {
  const all = (await getMessages()) as Messages;
  const picked = Object.fromEntries(
    (['Validation', ...namespaces] as (keyof Messages)[]).map((ns) => [ns, all[ns]]),
  ) as Partial<Messages>;
  if (validation) {
    picked.Validation = Object.fromEntries(
      Object.entries(all.Validation).filter(([key]) => validation.some((prefix) => key.startsWith(prefix))),
    ) as Messages['Validation'];
  }
  if (!namespaces.includes('Api')) {
    picked.Api = Object.fromEntries(CLIENT_API_KEYS.map((key) => [key, all.Api[key]])) as Messages['Api'];
  }
  return <NextIntlClientProvider messages={picked}>{children}</NextIntlClientProvider>;
}
