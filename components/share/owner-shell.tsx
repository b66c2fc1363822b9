import { getTranslations } from 'next-intl/server';
import { localePath, type Locale } from '@/i18n/routing';
import { LogoMark } from '../site/brand';
import { Link } from '../ui/link';

// The consent page's own frame (docs/rules.md#honest-copy: the owner is not a customer): a single-purpose page with the
// product's name above the request and, below it, the privacy policy and the operator. No site navigation, no
// account menu, no cookie banner and no page tracking: the page sets no optional cookie, so there is nothing to ask.

/**
 * The owner's header: the product's name with its mark, not a link (nothing leads away from the choice). Rendered by
 * the locale layout on `/location/` instead of the site header (./owner-page-switch.tsx).
 */
export function OwnerHeader({ product }: { product: string }) {
  return (
    <header className="border-b border-slate-200 bg-white" data-testid="owner-header">
      <p className="mx-auto flex min-h-11 max-w-lg items-center gap-2 px-4 py-2 text-lg font-bold text-brand">
        <LogoMark />
        {product}
      </p>
    </header>
  );
}

/**
 * The owner's footer: a link to the privacy policy (in `locale`, whose path prefix it takes) and the operator's
 * copyright line with `company`, the legal name. Rendered by the locale layout on `/location/` instead of the site
 * footer.
 */
export async function OwnerFooter({ locale, company }: { locale: Locale; company: string }) {
  const t = await getTranslations({ locale, namespace: 'Footer' });
  return (
    <footer className="mt-8 border-t border-slate-200 bg-white" data-testid="owner-footer">
      <div className="mx-auto max-w-lg px-4 py-6 text-sm text-slate-600">
        <Link href={localePath(locale, '/privacy-policy/')} className="inline-flex min-h-6 items-center underline">
          {t('privacy')}
        </Link>
        <p className="mt-2">{t('rights', { year: new Date().getFullYear(), company })}</p>
      </div>
    </footer>
  );
}
