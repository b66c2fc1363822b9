'use client';

import { useState, type FormEvent } from 'react';
import { ActionButton, Table, cell, fieldOf, useOps, when } from './parts';
import { opsCall } from '@/lib/api/ops';

// The console tabs: failed deliveries with retry, and contact-form messages with reply.

/**
 * Messages tab: SMS and e-mails that failed or wait for a retry, without their bodies (`GET /ops/messages`), with a
 * retry (`POST /ops/messages/{id}/retry`).
 */
export function Messages() {
  const { data, error, reload } = useOps('GET /messages');
  return (
    <section>
      {error && <p role="alert">{error}</p>}
      <p className="mb-2 text-sm text-slate-600">
        SMS and e-mails that failed, or wait for a retry after an error. A message that failed for good has lost its
        secrets (temporary password, codes, links): a retry sends it without them.
      </p>
      <Table head={['Created', 'Channel', 'To', 'Status', 'Last error', '']} empty="Nothing undelivered.">
        {(data?.messages ?? []).map((m) => (
          <tr key={m.id} data-testid="ops-message">
            <td className={cell}>{when(m.createdAt)}</td>
            <td className={cell}>
              {m.channel}
              <div className="text-xs text-slate-600">{m.template}</div>
            </td>
            <td className={cell}>{m.recipient}</td>
            <td className={cell}>
              {m.status}, {m.attempts} attempts
              {m.nextAttemptAt && <div className="text-xs">next {when(m.nextAttemptAt)}</div>}
            </td>
            <td className={`${cell} max-w-xs break-words text-xs`}>{m.lastError}</td>
            <td className={cell}>
              <ActionButton
                label="Retry"
                action={(reason) => opsCall('POST /messages/{id}/retry', { params: { id: m.id }, body: { reason } })}
                done={reload}
              />
            </td>
          </tr>
        ))}
      </Table>
    </section>
  );
}

/** Support tab: contact-form messages (`GET /ops/support`) with a reply by e-mail (`support-reply` template). */
export function Support() {
  const { data, error, reload } = useOps('GET /support');
  return (
    <section className="grid gap-3">
      {error && <p role="alert">{error}</p>}
      {!data?.messages.length && <p className="text-sm text-slate-600">No support messages.</p>}
      {(data?.messages ?? []).map((m) => (
        <article key={m.id} className="rounded border border-slate-200 bg-white p-3">
          <header className="text-sm">
            <strong>{m.name}</strong> &lt;{m.email}&gt; · {m.locale} · {when(m.createdAt)}
            {m.repliedAt && <span className="ml-2 text-green-800">replied {when(m.repliedAt)}</span>}
          </header>
          <p className="my-2 whitespace-pre-wrap">{m.message}</p>
          <SupportReply id={m.id} done={reload} />
        </article>
      ))}
    </section>
  );
}

function SupportReply({ id, done }: { id: string; done: () => void }) {
  const [note, setNote] = useState('');
  async function send(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    try {
      await opsCall('POST /support/{id}/reply', { params: { id }, body: { reply: fieldOf(form, 'reply') } });
      setNote('Reply e-mailed');
      form.reset();
      done();
    } catch (e) {
      setNote((e as Error).message);
    }
  }
  return (
    <form onSubmit={send} className="grid gap-2">
      <label className="text-sm">
        Reply by e-mail
        <textarea
          name="reply"
          required
          maxLength={5000}
          rows={3}
          className="mt-1 w-full rounded border border-slate-300 p-2"
        />
      </label>
      <div className="flex items-center gap-2">
        <button className="min-h-11 rounded bg-slate-900 px-4 text-white">Send reply</button>
        {note && <span className="text-sm">{note}</span>}
      </div>
    </form>
  );
}
