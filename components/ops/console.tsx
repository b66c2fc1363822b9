'use client';

import { useEffect, useState, type FormEvent } from 'react';
import { Abuse } from './abuse-tab';
import { Messages, Support } from './messages-tab';
import { Orders } from './orders-tab';
import { Audit, Funnel } from './reports-tab';
import { Field, fieldOf } from './parts';
import { opsCall } from '@/lib/api/ops';

const TABS = ['Orders', 'Abuse & opt-outs', 'Messages', 'Support', 'Funnel', 'Audit log'] as const;
type Tab = (typeof TABS)[number];

/**
 * The operator console: sign-in with e-mail, password and a TOTP code, then one tab per task. Every
 * change asks for a reason (written to the audit log by the server) and shows the server's answer.
 */
export function OpsConsole() {
  const [operator, setOperator] = useState<string | null | undefined>(undefined);
  const [tab, setTab] = useState<Tab>('Orders');

  useEffect(() => {
    opsCall('GET /session')
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
            onClick={() => opsCall('DELETE /session').finally(() => setOperator(null))}
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
    const form = event.currentTarget;
    setBusy(true);
    setError('');
    try {
      const me = await opsCall('POST /session', {
        body: { email: fieldOf(form, 'email'), password: fieldOf(form, 'password'), code: fieldOf(form, 'code') },
      });
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
