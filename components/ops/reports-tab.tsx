'use client';

import { useState } from 'react';
import { FUNNEL_STAGES } from '@/lib/tracking/funnel';
import { Table, cell, useOps, when } from './parts';

// The console tabs: the funnel and the audit log.

/** Funnel tab: visitors per stage, locale and channel over the last days (`GET /ops/funnel`). */
export function Funnel() {
  const [days, setDays] = useState(7);
  const { data, error } = useOps('GET /funnel', { days });
  return (
    <section>
      <label className="mb-3 flex items-center gap-2 text-sm">
        Days
        <select
          value={days}
          onChange={(e) => setDays(Number(e.target.value))}
          className="min-h-11 rounded border border-slate-300 px-2"
        >
          {[1, 7, 30, 90].map((d) => (
            <option key={d}>{d}</option>
          ))}
        </select>
      </label>
      {error && <p role="alert">{error}</p>}
      <Table head={['Locale', 'Channel', ...FUNNEL_STAGES]} empty="No visits in this period.">
        {(data?.rows ?? []).map((r) => (
          <tr key={`${r.locale}-${r.channel}`}>
            <td className={cell}>{r.locale}</td>
            <td className={cell}>{r.channel}</td>
            {FUNNEL_STAGES.map((s) => (
              <td key={s} className={cell}>
                {r.counts[s] ?? 0}
              </td>
            ))}
          </tr>
        ))}
      </Table>
    </section>
  );
}

/** Audit log tab: every operator action with its reason, newest first (`GET /ops/audit`, append-only table). */
export function Audit() {
  const { data, error } = useOps('GET /audit');
  return (
    <section>
      {error && <p role="alert">{error}</p>}
      <Table head={['When', 'Who', 'What', 'Record', 'Why']} empty="No entries.">
        {(data?.entries ?? []).map((e) => (
          <tr key={e.id} data-testid="ops-audit">
            <td className={cell}>{when(e.createdAt)}</td>
            <td className={cell}>{e.operatorEmail}</td>
            <td className={cell}>{e.action}</td>
            <td className={`${cell} break-all text-xs`}>{e.targetType ? `${e.targetType} ${e.targetId}` : '—'}</td>
            <td className={cell}>{e.reason ?? '—'}</td>
          </tr>
        ))}
      </Table>
    </section>
  );
}
