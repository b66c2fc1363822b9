export type Situation = { name: string; role: string; content: string };

/** One situation: an initial avatar (no photos of people who are not customers), the name, role and text. */
export function SituationCard({ item }: { item: Situation }) {
  return (
    <figure className="h-full card">
      <div className="flex items-center gap-3">
        <span aria-hidden className="grid h-10 w-10 place-items-center rounded-full bg-brand/10 font-bold text-brand">
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

/** The carousel before swiper (server-rendered): a row that scrolls and snaps by touch, focusable for the keyboard. */
export function SituationsRow({ items }: { items: Situation[] }) {
  // Focusable, so the row can be scrolled with the keyboard too (axe scrollable-region-focusable).
  return (
    <ul tabIndex={0} className="flex snap-x snap-mandatory gap-4 overflow-x-auto pb-4">
      {items.map((item) => (
        <li key={item.name} className="w-[85%] shrink-0 snap-start md:w-[48%] lg:w-[32%]">
          <SituationCard item={item} />
        </li>
      ))}
    </ul>
  );
}
