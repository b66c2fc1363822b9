'use client';
import type { ReactNode } from 'react';
import { A11y, Keyboard, Navigation } from 'swiper/modules';
import { Swiper, SwiperSlide } from 'swiper/react';
import 'swiper/css';

/**
 * The swiper carousel of the situations (loaded on demand by SituationsCarousel): one slide and a peek on phones, two
 * and three on wider screens; touch, mouse drag, keyboard and the previous/next buttons move it. Its slides are
 * `cards`, the elements the page rendered on the server (SituationCard) and the row before it showed.
 */
export default function SituationsSwiper({
  labels,
  cards,
}: {
  labels: { prev: string; next: string };
  cards: ReactNode[];
}) {
  return (
    <div className="relative">
      <Swiper
        modules={[A11y, Keyboard, Navigation]}
        slidesPerView={1.15}
        spaceBetween={16}
        breakpoints={{ 768: { slidesPerView: 2 }, 1024: { slidesPerView: 3 } }}
        keyboard={{ enabled: true }}
        navigation={{ prevEl: '.situation-prev', nextEl: '.situation-next' }}
        a11y={{ prevSlideMessage: labels.prev, nextSlideMessage: labels.next }}
        resistanceRatio={0.4}
      >
        {cards.map((card, i) => (
          <SwiperSlide key={i} className="!h-auto pb-2">
            <div className="h-full">{card}</div>
          </SwiperSlide>
        ))}
      </Swiper>
      <div className="mt-4 flex justify-end gap-3">
        <button
          type="button"
          className="situation-prev rounded-full border border-slate-300 px-4 py-2"
          aria-label={labels.prev}
        >
          ←
        </button>
        <button
          type="button"
          className="situation-next rounded-full border border-slate-300 px-4 py-2"
          aria-label={labels.next}
        >
          →
        </button>
      </div>
    </div>
  );
}
