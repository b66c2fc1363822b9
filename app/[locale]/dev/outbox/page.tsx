import { setRequestLocale } from 'next-intl/server';
import { Suspense } from 'react';
import { OutboxList } from '@/components/dashboard/outbox-list';
import { ClientMessages } from '@/components/ui/client-messages';
import type { Locale } from '@/i18n/routing';

/** `/dev/outbox`: development view of stored e-mails and SMS (404 from the API when DEV_OUTBOX is off). */
export default async function Page({ params }: { params: Promise<{ locale: Locale }> }) {
  const { locale } = await params;
  setRequestLocale(locale);
  return (
    <ClientMessages namespaces={['Outbox']}>
      <Suspense>
        <OutboxList />
      </Suspense>
    </ClientMessages>
  );
}
