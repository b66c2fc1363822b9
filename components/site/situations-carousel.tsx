'use client';
import { Suspense, lazy, type ReactNode } from 'react';
import type { Situation } from './situation-card';
import { WhenNear } from './when-near';

const SwiperCarousel = lazy(() => import('./situations-swiper'));

/**
 * The testimonials carousel of SPEC §2, holding illustrative situations (labelled so: we have no customer reviews to
 * quote). `children` is the server-rendered row (scrolls and snaps by touch); once the section nears the viewport,
 * swiper is loaded and takes over, so it costs the page's first load nothing.
 */
export function SituationsCarousel({
  items,
  labels,
  children,
}: {
  items: Situation[];
  labels: { prev: string; next: string };
  children: ReactNode;
}) {
  return (
    <WhenNear
      testId="situations"
      render={() => (
        <Suspense fallback={children}>
          <SwiperCarousel items={items} labels={labels} />
        </Suspense>
      )}
    >
      {children}
    </WhenNear>
  );
}
