'use client';

import { useState, type FormEvent } from 'react';
import { ActionButton, Field, Table, cell, fieldOf, useOps, when } from './parts';
import { opsCall } from '@/lib/api/ops';

// The console tab: abuse reports and the opt-out list.

/**
 * Abuse tab: reported requests and the opt-out list (`GET /ops/abuse`); add or remove a number with a reason
 * (`POST /ops/opt-outs`, `DELETE /ops/opt-outs/{number}`).
 */
export function Abuse() {
  const { data, error, reload } = useOps('GET /abuse');
  const [note, setNote] = useState('');
  async function add(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    try {
      await opsCall('POST /opt-outs', { body: { phone: fieldOf(form, 'phone'), reason: fieldOf(form, 'reason') } });
      setNote('Added');
      form.reset();
      reload();
    } catch (e) {
      setNote((e as Error).message);
    }
  }
  return (
    <section className="grid gap-6">
      {error && <p role="alert">{error}</p>}
      <div>
        <h2 className="mb-2 font-semibold">Abuse reports</h2>
        <Table head={['Reported', 'Number', 'Buyer', 'Request', "Owner's reason"]} empty="No abuse reports.">
          {(data?.reports ?? []).map((r) => (
            <tr key={r.id}>
              <td className={cell}>{when(r.reportedAt)}</td>
              <td className={cell}>{r.targetE164}</td>
              <td className={cell}>{r.buyerEmail ?? '—'}</td>
              <td className={cell}>{r.requestStatus ?? 'deleted'}</td>
              <td className={`${cell} max-w-xs break-words`}>{r.reason ?? '—'}</td>
            </tr>
          ))}
        </Table>
      </div>
      <div>
        <h2 className="mb-2 font-semibold">Opt-out list</h2>
        <form onSubmit={add} className="mb-3 flex flex-wrap items-end gap-2">
          <Field label="Number (+ and country code)" name="phone" />
          <Field label="Reason" name="reason" minLength={3} />
          <button className="min-h-11 rounded bg-slate-900 px-4 text-white">Add number</button>
          {note && <span className="text-sm">{note}</span>}
        </form>
        <Table head={['Number', 'Why', 'Since', '']} empty="No numbers are opted out.">
          {(data?.optOuts ?? []).map((o) => (
            <tr key={o.phoneE164} data-testid="ops-opt-out">
              <td className={cell}>{o.phoneE164}</td>
              <td className={cell}>
                {o.reason}
                {o.note && <div className="text-xs text-slate-600">{o.note}</div>}
              </td>
              <td className={cell}>{when(o.createdAt)}</td>
              <td className={cell}>
                <ActionButton
                  label="Remove"
                  action={(reason) =>
                    opsCall('DELETE /opt-outs/{phone}', { params: { phone: o.phoneE164 }, body: { reason } })
                  }
                  done={reload}
                />
              </td>
            </tr>
          ))}
        </Table>
      </div>
    </section>
  );
}
