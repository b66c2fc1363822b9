import { setRequestLocale } from 'next-intl/server';
import { OwnerHeader } from '@/components/share/owner-shell';
import type { Locale } from '@/i18n/routing';
import { site } from '@/lib/site';

/** The `@header` slot on the consent page `/location/`: the product's name only (components/share/owner-shell.tsx). */
export default async function ConsentHeader({ params }: { params: Promise<{ locale: Locale }> }) {
  setRequestLocale((await params).locale);
  return <OwnerHeader product={site.product} />;
}
