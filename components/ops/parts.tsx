'use client';

import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { formatDateTime } from '@/lib/intl-format';
import { formatMoney } from '@/lib/money';
import type { OpsAnswers, OpsBodies, OpsCall } from '@/lib/contracts/ops';
import { fetchApi, type FetchCall } from '@/lib/api/fetch';
import { callTarget } from '@/lib/api/request-parts';

/** Shared parts of the operator console's tabs: the API call, formatting, forms and tables. */

/** What a console call takes besides its name: the path's `{name}` values, the query and the JSON body. */
export type OpsCallOptions<K extends OpsCall> = {
  params?: Record<string, string>;
  query?: Record<string, string | number>;
} & (K extends keyof OpsBodies ? { body: OpsBodies[K] } : { body?: undefined });

/**
 * Calls the console API (`/api_f/v1/ops…`) through the site's fetch transport (lib/api/fetch.ts `fetchApi`) with a
 * JSON body and the console's `website_type` header. `call` names the route as lib/contracts/ops.ts does (`'POST
 * /orders/{id}/refund'`), so its body and its answer are the contract's types (`OpsBodies`, `OpsAnswers`). Resolves to
 * the envelope's `obj`; rejects with an `ApiClientError` carrying the envelope's message (or a network message) and the
 * HTTP status, so every form shows the server's own words.
 */
export async function opsCall<K extends OpsCall>(
  call: K,
  options: OpsCallOptions<K> = {} as OpsCallOptions<K>,
): Promise<OpsAnswers[K]> {
  const { method, path } = callTarget(call, options.params);
  return fetchApi<OpsAnswers[K]>(`/ops${path}`, {
    method: method as FetchCall['method'],
    params: options.query,
    json: options.body,
    language: 'en',
    headers: { website_type: 'ops' },
    networkMessage: 'Network error: the server did not answer.',
  });
}

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
