import { hasLocale } from 'next-intl';
import { getTranslations } from 'next-intl/server';
import { localePath, routing } from '@/i18n/routing';
import { site } from '@/lib/site';

/**
 * `GET /app.webmanifest?lang=LOCALE`: the web app manifest (W3C Web App Manifest) that lets a subscriber install the
 * dashboard as an app (Android; iOS 16.4+ from Safari's "Add to Home Screen", where Web Push works only for an installed
 * app). It opens on the locale's My locations page, in the locale's language (an unknown `lang` reads as English).
 * Icons come from scripts/build-app-icons.mjs. Served as `application/manifest+json`, cacheable for a day.
 */
export async function GET(request: Request): Promise<Response> {
  const lang = new URL(request.url).searchParams.get('lang') ?? 'en';
  const locale = hasLocale(routing.locales, lang) ? lang : routing.defaultLocale;
  const t = await getTranslations({ locale, namespace: 'Dashboard' });
  const manifest = {
    id: '/dashboard/locations/',
    name: site.product,
    short_name: site.product,
    description: t('appDescription'),
    lang: locale,
    start_url: localePath(locale, '/dashboard/locations/'),
    scope: '/',
    display: 'standalone',
    background_color: '#ffffff',
    theme_color: '#1d4ed8',
    icons: [
      { src: '/app-icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
      { src: '/app-icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
      { src: '/app-icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
    ],
  };
  return new Response(JSON.stringify(manifest), {
    headers: { 'content-type': 'application/manifest+json', 'cache-control': 'public, max-age=86400' },
  });
}
