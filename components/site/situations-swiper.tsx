'use client';
import { useState } from 'react';
import { A11y, Keyboard, Navigation } from 'swiper/modules';
import { Swiper, SwiperSlide } from 'swiper/react';
import 'swiper/css';
import { sentHtml } from './static-section';

/** The cards of the server-rendered situations row (static section `home-situations`), as HTML. */
function sentCards(): string[] {
  const template = document.createElement('template');
  template.innerHTML = sentHtml('home-situations');
  return [...template.content.querySelectorAll('li')].map((li) => li.innerHTML);
}

/**
 * The swiper carousel of the situations (loaded on demand by SituationsCarousel): one slide and a peek on phones, two
 * and three on wider screens; touch, mouse drag, keyboard and the previous/next buttons move it. Its slides are the
 * cards the server rendered into the row it replaces (SituationCard), so their text is not sent a second time.
 */
export default function SituationsSwiper({ labels }: { labels: { prev: string; next: string } }) {
  const [cards] = useState(sentCards);
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
        {cards.map((html, i) => (
          <SwiperSlide key={i} className="!h-auto pb-2">
            <div className="h-full" dangerouslySetInnerHTML={{ __html: html }} />
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
