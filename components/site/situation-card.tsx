import type { ReactNode } from 'react';

export type Situation = { name: string; role: string; content: string };

/** The illustrative situations of the home page (docs/rules.md#routes testimonials), in the page's language. */
export function situations(t: (key: `situation${1 | 2 | 3 | 4}${'Name' | 'Role' | 'Content'}`) => string) {
  return ([1, 2, 3, 4] as const).map((i) => ({
    name: t(`situation${i}Name`),
    role: t(`situation${i}Role`),
    content: t(`situation${i}Content`),
  }));
}

/** One situation: an initial avatar (no photos of people who are not customers), the name, role and text. */
export function SituationCard({ item }: { item: Situation }) {
  return (
    <figure className="h-full card">
      <div className="card-head">
        <span aria-hidden className="avatar">
          {item.name.slice(0, 1)}
        </span>
        <div>
          <p className="font-semibold text-slate-900">{item.name}</p>
          <p className="text-sm text-slate-600">{item.role}</p>
        </div>
      </div>
      <blockquote className="mt-4 text-slate-700">{item.content}</blockquote>
    </figure>
  );
}

/**
 * The carousel before swiper (SituationsCarousel): a row of `cards` (rendered elements, one per card) that scrolls and
 * snaps by touch, focusable for the keyboard.
 */
export function SituationsRow({ cards }: { cards: ReactNode[] }) {
  // Focusable, so the row can be scrolled with the keyboard too (axe scrollable-region-focusable).
  return (
    <ul tabIndex={0} className="flex snap-x snap-mandatory gap-4 overflow-x-auto pb-4">
      {cards.map((card, i) => (
        <li key={i} className="situation-slide">
          {card}
        </li>
      ))}
    </ul>
  );
}
