'use client';
import { Suspense, lazy, type ReactNode } from 'react';
import { WhenNear } from './when-near';

const SwiperCarousel = lazy(() => import('./situations-swiper'));

/**
 * The testimonials carousel of docs/rules.md#routes, holding illustrative situations (labelled so: we have no customer reviews to
 * quote). `children` is the server-rendered row, the static section `home-situations` (scrolls and snaps by touch);
 * once the section nears the viewport, swiper is loaded and takes over with the cards of that row, so it costs the
 * page's first load nothing and the cards' text is sent once.
 */
export function SituationsCarousel({
  labels,
  children,
}: {
  labels: { prev: string; next: string };
  children: ReactNode;
}) {
  return (
    <WhenNear
      testId="situations"
      render={() => (
        <Suspense fallback={children}>
          <SwiperCarousel labels={labels} />
        </Suspense>
      )}
    >
      {children}
    </WhenNear>
  );
}
