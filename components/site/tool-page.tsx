import { getTranslations } from 'next-intl/server';
import type { ReactNode } from 'react';
import { ClientMessages } from '../ui/client-messages';

/**
 * A free-tool landing page (`/phone-finder`, `/ip-tracker`): heading, lead, the plain note of what the tool does not
 * do (docs/rules.md#honest-copy), then the tool's island with the messages it needs.
 */
export async function ToolPage({
  page,
  children,
  footnote,
}: {
  page: 'Landing.phoneFinder' | 'Landing.ipTracker';
  children: ReactNode;
  footnote?: string;
}) {
  const t = await getTranslations(page);
  return (
    <section className="mx-auto max-w-3xl">
      <h1 className="text-3xl font-bold text-slate-900 sm:text-4xl">{t('heading')}</h1>
      <p className="mt-4 text-lg text-slate-700">{t('lead')}</p>
      <p className="mt-4 rounded-xl bg-amber-50 p-4 text-amber-900" data-testid="tool-note">
        {t('note')}
      </p>
      <div className="mt-8">
        <ClientMessages namespaces={['Landing', 'PhoneFacts']}>{children}</ClientMessages>
      </div>
      {footnote && <p className="mt-6 text-xs text-slate-500">{footnote}</p>}
    </section>
  );
}
