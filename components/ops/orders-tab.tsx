'use client';

import { useState } from 'react';
import type { OpsOrder } from '@/lib/contracts/ops';
import { ActionButton, Table, cell, money, useOps, when } from './parts';
import { opsCall } from '@/lib/api/ops';

// The console tab: orders, with refund and cancel; rows typed by the contract (lib/contracts/ops.ts `OpsOrder`).

/**
 * Orders tab: search by e-mail, number (with or without +), order reference or order code (`GET /ops/orders`); refund
 * and cancel through the buyer's own paths (`POST /ops/orders/{id}/refund` and `/cancel`), each with a reason for the
 * audit log.
 */
export function Orders() {
  const [query, setQuery] = useState('');
  const { data, error, reload } = useOps('GET /orders', { q: query });
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
          placeholder="E-mail, number, reference or order code"
          className="min-h-11 flex-1 rounded border border-slate-300 px-3"
        />
        <button className="min-h-11 rounded bg-slate-900 px-4 text-white">Search</button>
      </form>
      {error && <p role="alert">{error}</p>}
      <Table head={['Order', 'Buyer', 'Paid', 'Subscription', 'Actions']} empty="No orders match.">
        {(data?.orders ?? []).map((o) => (
          <OrderRow key={o.id} order={o} reload={reload} />
        ))}
      </Table>
    </section>
  );
}

/**
 * One order of the search as a table row: its reference, code and date; the buyer's e-mail and number; what was paid
 * (`OrderPayment`); its subscriptions; and Refund (a paid order) and Cancel subscription (one still running and not
 * already ending), each calling `reload` once the server has done it.
 */
function OrderRow({ order: o, reload }: { order: OpsOrder; reload: () => void }) {
  return (
    <tr data-testid="ops-order">
      <td className={cell}>
        <code className="font-semibold">{o.reference}</code>
        <div className="text-xs text-slate-600">
          <code>{o.code}</code>
        </div>
        <div className="text-xs text-slate-600">{when(o.createdAt)}</div>
      </td>
      <td className={cell}>
        {o.email}
        <div className="text-xs text-slate-600">{o.phoneE164}</div>
      </td>
      <td className={cell}>
        <OrderPayment order={o} />
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
            action={(reason) => opsCall('POST /orders/{id}/refund', { params: { id: o.id }, body: { reason } })}
            done={reload}
          />
        )}
        {o.subscriptions.some((s) => ['trialing', 'active', 'past_due'].includes(s.status) && !s.cancelAt) && (
          <ActionButton
            label="Cancel subscription"
            action={(reason) => opsCall('POST /orders/{id}/cancel', { params: { id: o.id }, body: { reason } })}
            done={reload}
          />
        )}
      </td>
    </tr>
  );
}

/**
 * The Paid cell's content: the amount (minor units shown in the order's currency) and the order's status, then when
 * it was refunded, the buyer's withdrawal (when, how, the rule, the refund of what was paid, IP, time zone and browser)
 * and the proof of consent to the subscription (the terms agreed, their SHA-256, IP and browser).
 */
function OrderPayment({ order: o }: { order: OpsOrder }) {
  return (
    <>
      {money(o.amountMinor, o.currency)} · {o.status}
      {o.refund && <div className="text-xs">refunded {when(o.refund.createdAt)}</div>}
      {o.withdrawal && (
        <div className="text-xs" data-testid="ops-withdrawal">
          withdrawn {when(o.withdrawal.withdrawnAt)} via {o.withdrawal.via} ({o.withdrawal.rule}, refund{' '}
          {money(o.withdrawal.refundMinor, o.currency)} of {money(o.withdrawal.paidMinor, o.currency)}) · IP{' '}
          {o.withdrawal.ip ?? '—'} · {o.withdrawal.timeZone ?? 'UTC'}
          <div className="truncate text-slate-600" title={o.withdrawal.userAgent ?? ''}>
            {o.withdrawal.userAgent ?? '—'}
          </div>
        </div>
      )}
      {o.subscriptionConsent && (
        <details className="text-xs" data-testid="ops-subscription-consent">
          <summary>
            agreed {when(o.subscriptionConsent.agreedAt)} · {o.subscriptionConsent.termsVersion}
            {o.subscriptionConsent.startNow ? ' · start now' : ''} · IP {o.subscriptionConsent.ip ?? '—'}
          </summary>
          <pre className="whitespace-pre-wrap">{o.subscriptionConsent.termsText}</pre>
          <div className="break-all text-slate-600">
            SHA-256 {o.subscriptionConsent.termsSha256} · {o.subscriptionConsent.userAgent ?? '—'}
          </div>
        </details>
      )}
    </>
  );
}
