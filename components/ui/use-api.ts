'use client';
import { useLocale, useTranslations } from 'next-intl';
import { useMemo } from 'react';
import { browserApi } from '@/lib/api/browser';

/** The API client in the page's language, for client components. */
export function useApi() {
  const locale = useLocale();
  const t = useTranslations('Api');
  const network = t('network');
  return useMemo(() => browserApi(locale, network), [locale, network]);
}
