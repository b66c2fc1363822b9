import { notFound } from 'next/navigation';
import { setRequestLocale } from 'next-intl/server';
import type { Locale } from '@/i18n/routing';

/**
 * `/404` (SPEC §2): the not-found page (app/[locale]/not-found.tsx) with a real 404 status (issue 13 §10), so search
 * engines and monitors do not take it for a page.
 */
export default async function NotFoundPage({ params }: { params: Promise<{ locale: Locale }> }) {
  const { locale } = await params;
  setRequestLocale(locale);
  notFound();
}
