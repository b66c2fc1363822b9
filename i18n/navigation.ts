import { createNavigation } from 'next-intl/navigation';
import { routing } from './routing';

/** Locale-aware `Link`, `redirect`, `usePathname`, `useRouter` built from the routing config. */
export const { Link, redirect, usePathname, useRouter, getPathname } = createNavigation(routing);
