'use client';

import { useState } from 'react';
import { Table, cell, useOps, when } from './parts';

// The console tabs: the funnel and the audit log.

type FunnelData = { days: number; rows: { locale: string; channel: string; counts: Record<string, number> }[] };

/** Funnel tab: visitors per stage, locale and channel over the last days (`GET /ops/funnel`). */
export function Funnel() {
  const [days, setDays] = useState(7);
  const { data, error } = useOps<FunnelData>(`/funnel?days=${days}`);
  const stages = ['landing_view', 'locate_submitted', 'paid', 'consent_opened', 'shared'];
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
      <Table head={['Locale', 'Channel', ...stages]} empty="No visits in this period.">
        {(data?.rows ?? []).map((r) => (
          <tr key={`${r.locale}-${r.channel}`}>
            <td className={cell}>{r.locale}</td>
            <td className={cell}>{r.channel}</td>
            {stages.map((s) => (
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

type AuditRow = {
  id: number;
  operatorEmail: string;
  action: string;
  targetType: string | null;
  targetId: string | null;
  reason: string | null;
  createdAt: string;
};

/** Audit log tab: every operator action with its reason, newest first (`GET /ops/audit`, append-only table). */
export function Audit() {
  const { data, error } = useOps<{ entries: AuditRow[] }>('/audit');
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
