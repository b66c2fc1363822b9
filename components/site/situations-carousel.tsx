'use client';
import { Suspense, lazy, type ReactNode } from 'react';
import { SituationsRow } from './situation-card';
import { WhenNear } from './when-near';

const SwiperCarousel = lazy(() => import('./situations-swiper'));

/**
 * The testimonials carousel of docs/rules.md#routes, holding illustrative situations (labelled so: we have no customer
 * reviews to quote). `cards`: the situations' cards, rendered by the page (server components, SituationCard), one
 * element per card. First they are a row that scrolls and snaps by touch (SituationsRow); once the row nears the
 * viewport, swiper is loaded and takes over with the same elements, so it costs the page's first load nothing.
 */
export function SituationsCarousel({ labels, cards }: { labels: { prev: string; next: string }; cards: ReactNode[] }) {
  const row = <SituationsRow cards={cards} />;
  return (
    <WhenNear
      testId="situations"
      render={() => (
        <Suspense fallback={row}>
          <SwiperCarousel labels={labels} cards={cards} />
        </Suspense>
      )}
    >
      {row}
    </WhenNear>
  );
}
