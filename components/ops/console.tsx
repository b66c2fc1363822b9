'use client';

import { useCallback, useEffect, useState, type FormEvent, type ReactNode } from 'react';

type Envelope<T> = { success: 0 | 1; msg: string; obj?: T };

/**
 * Calls the console API (`/api_f/v1/ops…`) with JSON and the `website_type` header the API requires of changes.
 * Resolves to the envelope's `obj`; rejects with the envelope's message (or a network message), so every form shows
 * the server's own words.
 */
async function opsCall<T>(method: string, path: string, body?: unknown): Promise<T> {
  let res: Response;
  try {
    res = await fetch(`/api_f/v1/ops${path}`, {
      method,
      credentials: 'same-origin',
      headers: {
        website_type: 'ops',
        'accept-language': 'en',
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      body: body ? JSON.stringify(body) : undefined,
    });
  } catch {
    throw new Error('Network error: the server did not answer.');
  }
  const data = (await res.json().catch(() => null)) as Envelope<T> | null;
  if (!res.ok || !data?.success)
    throw Object.assign(new Error(data?.msg || `HTTP ${res.status}`), { status: res.status });
  return data.obj as T;
}

const TABS = ['Orders', 'Abuse & opt-outs', 'Messages', 'Support', 'Funnel', 'Audit log'] as const;
type Tab = (typeof TABS)[number];

/** Formats minor units of `currency` (e.g. 99, 'USD' → $0.99). */
function money(minor: number, currency: string): string {
  return new Intl.NumberFormat('en', { style: 'currency', currency }).format(minor / 100);
}

/** A timestamp in the reader's time zone, with the zone shown. */
function when(value: string | null | undefined): string {
  if (!value) return '—';
  return new Intl.DateTimeFormat('en-GB', {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    timeZoneName: 'short',
  }).format(new Date(value));
}

/**
 * The operator console (issue 16 §3): sign-in with e-mail, password and a TOTP code, then one tab per task. Every
 * change asks for a reason (written to the audit log by the server) and shows the server's answer.
 */
export function OpsConsole() {
  const [operator, setOperator] = useState<string | null | undefined>(undefined);
  const [tab, setTab] = useState<Tab>('Orders');

  useEffect(() => {
    opsCall<{ email: string }>('GET', '/session')
      .then((me) => setOperator(me.email))
      .catch(() => setOperator(null));
  }, []);

  if (operator === undefined) return <p className="p-6 text-slate-600">Loading…</p>;
  if (operator === null) return <SignIn onSignedIn={setOperator} />;
  return (
    <div className="mx-auto max-w-6xl p-4">
      <header className="mb-4 flex flex-wrap items-center justify-between gap-2">
        <h1 className="text-xl font-semibold">Operator console</h1>
        <div className="flex items-center gap-3 text-sm">
          <span data-testid="ops-operator">{operator}</span>
          <button
            className="min-h-11 rounded border border-slate-300 px-3"
            onClick={() => opsCall('DELETE', '/session').finally(() => setOperator(null))}
          >
            Sign out
          </button>
        </div>
      </header>
      <nav className="mb-4 flex flex-wrap gap-2" aria-label="Console sections">
        {TABS.map((name) => (
          <button
            key={name}
            aria-current={tab === name ? 'page' : undefined}
            className={`min-h-11 rounded px-3 text-sm ${tab === name ? 'bg-slate-900 text-white' : 'border border-slate-300 bg-white'}`}
            onClick={() => setTab(name)}
          >
            {name}
          </button>
        ))}
      </nav>
      <main>
        {tab === 'Orders' && <Orders />}
        {tab === 'Abuse & opt-outs' && <Abuse />}
        {tab === 'Messages' && <Messages />}
        {tab === 'Support' && <Support />}
        {tab === 'Funnel' && <Funnel />}
        {tab === 'Audit log' && <Audit />}
      </main>
    </div>
  );
}

function SignIn({ onSignedIn }: { onSignedIn: (email: string) => void }) {
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    setBusy(true);
    setError('');
    try {
      const me = await opsCall<{ email: string }>('POST', '/session', Object.fromEntries(data));
      onSignedIn(me.email);
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  }
  return (
    <main className="mx-auto mt-16 max-w-sm rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
      <h1 className="mb-4 text-xl font-semibold">Operator sign-in</h1>
      <form onSubmit={submit} className="grid gap-3">
        <Field label="E-mail" name="email" type="email" autoComplete="username" />
        <Field label="Password" name="password" type="password" autoComplete="current-password" />
        <Field label="Authenticator code" name="code" inputMode="numeric" autoComplete="one-time-code" />
        {error && (
          <p role="alert" className="text-sm text-red-700">
            {error}
          </p>
        )}
        <button disabled={busy} className="min-h-11 rounded bg-slate-900 font-medium text-white disabled:opacity-60">
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </main>
  );
}

function Field(props: { label: string; name: string } & React.InputHTMLAttributes<HTMLInputElement>) {
  const { label, ...input } = props;
  return (
    <label className="grid gap-1 text-sm">
      {label}
      <input required className="min-h-11 rounded border border-slate-300 px-3" {...input} />
    </label>
  );
}

/** Loads `path` on mount and on `reload()`; shows errors as text. */
function useOps<T>(path: string) {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState('');
  const reload = useCallback(() => {
    opsCall<T>('GET', path)
      .then((value) => {
        setData(value);
        setError('');
      })
      .catch((e: Error) => setError(e.message));
  }, [path]);
  useEffect(reload, [reload]);
  return { data, error, reload };
}

/** A button that asks for a reason, performs `action(reason)` and reports the server's answer. */
function ActionButton({
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

function Table({ head, children, empty }: { head: string[]; children: ReactNode[]; empty: string }) {
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

const cell = 'border-t border-slate-100 px-3 py-2 align-top';

type OrderRow = {
  id: string;
  code: string;
  email: string;
  phoneE164: string;
  status: string;
  amountMinor: number;
  currency: string;
  createdAt: string;
  paidAt: string | null;
  subscriptions: { id: string; status: string; currentPeriodEnd: string; cancelAt: string | null }[];
  refund: { amountMinor: number; createdAt: string } | null;
};

function Orders() {
  const [query, setQuery] = useState('');
  const { data, error, reload } = useOps<{ orders: OrderRow[] }>(`/orders?q=${encodeURIComponent(query)}`);
  return (
    <section>
      <form
        className="mb-3 flex gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          setQuery(String(new FormData(e.currentTarget).get('q') ?? ''));
        }}
      >
        <label className="sr-only" htmlFor="ops-q">
          Search orders
        </label>
        <input
          id="ops-q"
          name="q"
          placeholder="E-mail, number or order code"
          className="min-h-11 flex-1 rounded border border-slate-300 px-3"
        />
        <button className="min-h-11 rounded bg-slate-900 px-4 text-white">Search</button>
      </form>
      {error && <p role="alert">{error}</p>}
      <Table head={['Order', 'Buyer', 'Paid', 'Subscription', 'Actions']} empty="No orders match.">
        {(data?.orders ?? []).map((o) => (
          <tr key={o.id} data-testid="ops-order">
            <td className={cell}>
              <code>{o.code}</code>
              <div className="text-xs text-slate-600">{when(o.createdAt)}</div>
            </td>
            <td className={cell}>
              {o.email}
              <div className="text-xs text-slate-600">{o.phoneE164}</div>
            </td>
            <td className={cell}>
              {money(o.amountMinor, o.currency)} · {o.status}
              {o.refund && <div className="text-xs">refunded {when(o.refund.createdAt)}</div>}
            </td>
            <td className={cell}>
              {o.subscriptions.map((s) => (
                <div key={s.id}>
                  {s.status}
                  {s.cancelAt ? `, ends ${when(s.cancelAt)}` : `, renews ${when(s.currentPeriodEnd)}`}
                </div>
              ))}
            </td>
            <td className={`${cell} space-y-1`}>
              {o.status === 'paid' && (
                <ActionButton
                  label="Refund"
                  action={(reason) => opsCall('POST', `/orders/${o.id}/refund`, { reason })}
                  done={reload}
                />
              )}
              {o.subscriptions.some((s) => ['trialing', 'active', 'past_due'].includes(s.status) && !s.cancelAt) && (
                <ActionButton
                  label="Cancel subscription"
                  action={(reason) => opsCall('POST', `/orders/${o.id}/cancel`, { reason })}
                  done={reload}
                />
              )}
            </td>
          </tr>
        ))}
      </Table>
    </section>
  );
}

type AbuseData = {
  reports: {
    id: string;
    targetE164: string | null;
    reportedAt: string;
    buyerEmail: string | null;
    requestStatus: string | null;
  }[];
  optOuts: { phoneE164: string; reason: string; note: string | null; createdAt: string }[];
};

function Abuse() {
  const { data, error, reload } = useOps<AbuseData>('/abuse');
  const [note, setNote] = useState('');
  async function add(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    try {
      await opsCall('POST', '/opt-outs', Object.fromEntries(new FormData(form)));
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
        <Table head={['Reported', 'Number', 'Buyer', 'Request']} empty="No abuse reports.">
          {(data?.reports ?? []).map((r) => (
            <tr key={r.id}>
              <td className={cell}>{when(r.reportedAt)}</td>
              <td className={cell}>{r.targetE164}</td>
              <td className={cell}>{r.buyerEmail ?? '—'}</td>
              <td className={cell}>{r.requestStatus ?? 'deleted'}</td>
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
                  action={(reason) => opsCall('DELETE', `/opt-outs/${encodeURIComponent(o.phoneE164)}`, { reason })}
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

type MessageRow = {
  id: string;
  channel: string;
  recipient: string;
  template: string | null;
  status: string;
  attempts: number;
  lastError: string | null;
  nextAttemptAt: string | null;
  redacted: boolean;
  createdAt: string;
};

function Messages() {
  const { data, error, reload } = useOps<{ messages: MessageRow[] }>('/messages');
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
                action={(reason) => opsCall('POST', `/messages/${m.id}/retry`, { reason })}
                done={reload}
              />
            </td>
          </tr>
        ))}
      </Table>
    </section>
  );
}

type SupportRow = {
  id: string;
  name: string;
  email: string;
  message: string;
  locale: string;
  createdAt: string;
  repliedAt: string | null;
};

function Support() {
  const { data, error, reload } = useOps<{ messages: SupportRow[] }>('/support');
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
      await opsCall('POST', `/support/${id}/reply`, Object.fromEntries(new FormData(form)));
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

type FunnelData = { days: number; rows: { locale: string; channel: string; counts: Record<string, number> }[] };

function Funnel() {
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

function Audit() {
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
