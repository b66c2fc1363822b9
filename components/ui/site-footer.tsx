import { getTranslations } from 'next-intl/server';

/** Site footer: copyright 2021–current year (SPEC §1) and the consent promise. */
export async function SiteFooter({ company }: { company: string }) {
  const t = await getTranslations('Footer');
  return (
    <footer className="mt-16 border-t border-slate-200 bg-white">
      <div className="mx-auto max-w-5xl px-4 py-6 text-sm text-slate-600">
        <p>{t('consentNote')}</p>
        <p className="mt-2">{t('rights', { year: new Date().getFullYear(), company })}</p>
      </div>
    </footer>
  );
}
