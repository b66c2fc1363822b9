'use client';
import { useLocale } from 'next-intl';
import type { ComponentProps } from 'react';
import { localePath } from '@/i18n/routing';
import { Link } from './link';

/**
 * The site's `Link` to one of its own pages in the reader's locale: `path` is the page's path without locale prefix,
 * with its trailing slash and optionally a query (`/contact-us/`, `/checkout/?order=…`), prefixed by `localePath`
 * for the current locale (`/es/contact-us/`). The other props are `Link`'s. Not next-intl's own `Link`, which would
 * add its navigation module to the page's bundle (i18n/navigation.ts).
 */
export function LocaleLink({ path, ...rest }: Omit<ComponentProps<typeof Link>, 'href'> & { path: string }) {
  return <Link href={localePath(useLocale(), path)} {...rest} />;
}
