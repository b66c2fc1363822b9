import type { ReactNode } from 'react';

/** The card that holds a single-purpose form page (sign in, forgotten password, reset): a title, then the content. */
export function FormCard({ title, lead, children }: { title: string; lead?: string; children: ReactNode }) {
  return (
    <section className="mx-auto max-w-md rounded-2xl bg-white p-6 shadow ring-1 ring-slate-200">
      <h1 className="text-2xl font-bold">{title}</h1>
      {lead && <p className="mt-2 text-slate-700">{lead}</p>}
      {children}
    </section>
  );
}
