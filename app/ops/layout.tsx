import type { Metadata, Viewport } from 'next';
import type { ReactNode } from 'react';
import '@/styles/globals.css';

/** The operator console is never indexed nor linked. */
export const metadata: Metadata = {
  title: 'Operator console',
  robots: { index: false, follow: false, nocache: true },
};

export const viewport: Viewport = { width: 'device-width', initialScale: 1 };

/** Root layout of `/ops` (English only; it is outside the locale prefixes and the site's header, footer and tracking). */
export default function OpsLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body className="min-h-screen bg-slate-50 text-slate-900">{children}</body>
    </html>
  );
}
