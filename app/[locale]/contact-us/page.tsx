import { getTranslations, setRequestLocale } from 'next-intl/server';
import { legalMetadata, legalParams } from '@/components/site/legal-page';
import { ContactForm } from '@/components/site/contact-form';
import { ClientMessages } from '@/components/ui/client-messages';
import type { Locale } from '@/i18n/routing';
import { pageMetadata } from '@/lib/seo';

/** `/contact-us` (docs/rules.md#routes): the contact form (support e-mailed through the outbox) and the support address. */
export default async function Page({ params }: { params: Promise<{ locale: Locale }> }) {
  const { locale } = await params;
  setRequestLocale(locale);
  const t = await getTranslations();
  return (
    <section className="mx-auto max-w-xl rounded-2xl bg-white p-6 shadow ring-1 ring-slate-200">
      <h1 className="text-2xl font-bold">{t('Legal.contactUs.title')}</h1>
      <p className="mt-2 text-slate-700">{t('ContactUs.lead')}</p>
      <ClientMessages namespaces={['ContactUs']}>
        <ContactForm />
      </ClientMessages>
      <p className="mt-6 text-sm text-slate-600">{t('ContactUs.direct', { support: legalParams().support })}</p>
    </section>
  );
}

export async function generateMetadata({ params }: { params: Promise<{ locale: Locale }> }) {
  const { locale } = await params;
  const { title, description } = await legalMetadata(locale, 'contactUs');
  return pageMetadata(locale, '/contact-us/', title, description);
}
