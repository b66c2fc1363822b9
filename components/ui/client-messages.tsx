import { NextIntlClientProvider } from 'next-intl';
import { getMessages } from 'next-intl/server';
import type { ReactNode } from 'react';
import type { Messages } from '@/i18n/messages';

/**
 * Hands client components only the message namespaces they use (plus `Api` and `Validation` for errors), so a
 * page's JavaScript does not carry the whole catalogue.
 */
export async function ClientMessages({
  namespaces,
  children,
}: {
  namespaces: (keyof Messages)[];
  children: ReactNode;
}) {
  const all = (await getMessages()) as Messages;
  const picked = Object.fromEntries(
    (['Api', 'Validation', ...namespaces] as (keyof Messages)[]).map((ns) => [ns, all[ns]]),
  );
  return <NextIntlClientProvider messages={picked}>{children}</NextIntlClientProvider>;
}
