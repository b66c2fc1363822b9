'use client';
import { Suspense, lazy, type ComponentProps } from 'react';
import { WhenNear } from './when-near';

const PriceCard = lazy(() => import('./price-card'));

/**
 * The price card, loaded when its section nears the viewport (it is below the fold), so the home page's first load
 * does not carry it. Until then a box of the card's size holds the place.
 */
export function PriceCardSlot(props: ComponentProps<typeof PriceCard>) {
  const placeholder = (
    <div className="mx-auto h-[34rem] max-w-md rounded-3xl bg-white ring-1 ring-slate-200" aria-busy="true" />
  );
  return (
    <WhenNear render={() => <Suspense fallback={placeholder}>{<PriceCard {...props} />}</Suspense>}>
      {placeholder}
    </WhenNear>
  );
}
