import { setRequestLocale } from 'next-intl/server';
import { Suspense } from 'react';
import { SandboxCheckout } from '@/components/payment/sandbox-checkout';
import { ClientMessages } from '@/components/ui/client-messages';
import type { Locale } from '@/i18n/routing';

/** `/checkout?order=CODE`: the sandbox checkout page of an order. */
export default async function Page({ params }: { params: Promise<{ locale: Locale }> }) {
  const { locale } = await params;
  setRequestLocale(locale);
  return (
    <ClientMessages namespaces={['Checkout']}>
      <Suspense>
        <SandboxCheckout />
      </Suspense>
    </ClientMessages>
  );
}
