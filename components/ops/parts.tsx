'use client';

import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { formatDateTime } from '@/lib/intl-format';
import { formatMoney } from '@/lib/money';
import type { OpsAnswers, OpsCall } from '@/lib/contracts/ops';
import { opsCall, type OpsCallOptions } from '@/lib/api/ops';

/** Shared parts of the operator console's tabs: formatting, forms, tables and the loading of a tab (`useOps`). */

/** The text of a form's field `name` ('' when absent), for a body of the contract. */
export function fieldOf(form: HTMLFormElement, name: string): string {
  return String(new FormData(form).get(name) ?? '');
}

/**
 * Formats integer minor units of `currency` in English with the currency's own minor digits (lib/money.ts: 99 USD →
 * US$0.99, 500 JPY → JP¥500).
 */
export function money(minor: number, currency: string): string {
  return formatMoney(minor, currency, 'en');
}

/** A timestamp in the reader's time zone, with the zone shown. */
export function when(value: string | null | undefined): string {
  return value ? formatDateTime(value, 'en-GB') : '—';
}

export function Field(props: { label: string; name: string } & React.InputHTMLAttributes<HTMLInputElement>) {
  const { label, ...input } = props;
  return (
    <label className="grid gap-1 text-sm">
      {label}
      <input required className="min-h-11 rounded border border-slate-300 px-3" {...input} />
    </label>
  );
}

/** Loads the console's GET `call` (with `query`) on mount, when the query changes and on `reload()`; errors as text. */
export function useOps<K extends OpsCall & `GET ${string}`>(call: K, query?: Record<string, string | number>) {
  const [data, setData] = useState<OpsAnswers[K] | null>(null);
  const [error, setError] = useState('');
  const key = JSON.stringify(query ?? {});
  const reload = useCallback(() => {
    opsCall(call, { query: JSON.parse(key) as Record<string, string | number> } as OpsCallOptions<K>)
      .then((value) => {
        setData(value);
        setError('');
      })
      .catch((e: Error) => setError(e.message));
  }, [call, key]);
  useEffect(reload, [reload]);
  return { data, error, reload };
}

/** A button that asks for a reason, performs `action(reason)` and reports the server's answer. */
export function ActionButton({
  label,
  action,
  done,
}: {
  label: string;
  action: (reason: string) => Promise<unknown>;
  done: () => void;
}) {
  const [note, setNote] = useState('');
  async function run() {
    const reason = window.prompt(`${label}: why? (written to the audit log)`);
    if (!reason) return;
    try {
      await action(reason);
      setNote('Done');
      done();
    } catch (e) {
      setNote((e as Error).message);
    }
  }
  return (
    <span className="inline-flex items-center gap-2">
      <button className="min-h-11 rounded border border-slate-300 bg-white px-3 text-sm" onClick={run}>
        {label}
      </button>
      {note && <span className="text-xs text-slate-600">{note}</span>}
    </span>
  );
}

export function Table({ head, children, empty }: { head: string[]; children: ReactNode[]; empty: string }) {
  if (!children.length) return <p className="text-sm text-slate-600">{empty}</p>;
  return (
    <div className="overflow-x-auto rounded border border-slate-200 bg-white">
      <table className="w-full text-left text-sm">
        <thead className="bg-slate-100">
          <tr>
            {head.map((h) => (
              <th key={h} className="px-3 py-2 font-medium">
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}

export const cell = 'border-t border-slate-100 px-3 py-2 align-top';
