'use client';
import { useLocale } from 'next-intl';
import { useRouter } from 'next/navigation';
import { useEffect, useState } from 'react';
import type { OfferView } from '@/lib/contracts/orders';
import { trackingQuery, type AppLocale } from '@/lib/routing/rules';
import { track } from '@/lib/tracking/track';
import { loadPrototypes, ownerNoteProblem } from '@/lib/validation/requester-name';
import { useApi } from '../ui/use-api';

/** A random idempotency key (hex), made once per pay step: a double click creates one order. */
function newKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Who orders what in the pay step. */
export type PayOrderInput = {
  email: string;
  /** E.164. */
  phone: string;
  /** Who asks, as the owner will see it. */
  requesterName: string;
};

/**
 * The pay step's state and calls: the offer for this number and e-mail (`POST /portal/priceSetup/offer`, once per
 * pair; `view` is null until it answers), the payment `method`, the optional note to the owner with its problem
 * (`noteError`, checked again as it is edited once it has one) and `onPay`, which checks the note with the
 * confusables table (`loadPrototypes`) and creates the order (`POST /portal/order` with an idempotency key), then
 * goes where the answer's `next` says. `running`: the first-order discount applies (offered, and not lost to another
 * order first: 409 `discount_used`); `registered`: the e-mail already has an account (409 `email_registered`);
 * `error`: the offer's or the order's message.
 */
export function usePayOrder({ email, phone, requesterName }: PayOrderInput) {
  const locale = useLocale() as AppLocale;
  const router = useRouter();
  // The axios client: this step is loaded with the checked number (components/locate/identified.tsx), never with the
  // page.
  const api = useApi();
  const [view, setView] = useState<OfferView | null>(null);
  const [method, setMethod] = useState<'card' | 'wallet'>('card');
  const [key] = useState(newKey);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  /** The discount went to another order first (409 discount_used): the regular price applies. */
  const [lost, setLost] = useState(false);
  const [registered, setRegistered] = useState(false);
  const [note, setNote] = useState('');
  const [noteError, setNoteError] = useState<string | undefined>();

  useEffect(() => {
    let cancelled = false;
    api.call('POST /portal/priceSetup/offer', { body: { email, phone } }).then(
      (v) => !cancelled && setView(v),
      (e: Error) => !cancelled && setError(e.message),
    );
    return () => {
      cancelled = true;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per number and e-mail
  }, [email, phone]);

  const running = !!view?.offer && !lost;

  const onNoteChange = (value: string) => {
    setNote(value);
    if (noteError) void loadPrototypes().then((p) => setNoteError(ownerNoteProblem(value, p) ?? undefined));
  };

  const onPay = async () => {
    const problem = ownerNoteProblem(note, await loadPrototypes());
    setNoteError(problem ?? undefined);
    if (problem) {
      document.getElementById('note')?.focus();
      return;
    }
    track('checkout_started', 'InitiateCheckout');
    setBusy(true);
    setError(null);
    try {
      const order = await api.call('POST /portal/order', {
        body: {
          email,
          phone,
          requesterName,
          ...(note.trim() ? { note } : {}),
          locale,
          terms: true,
          // The statement above Pay (`Pay.startNow`): the buyer asks for the service to start at once.
          startNow: true,
          plan: view!.plan.id,
          method,
          idempotencyKey: key,
          ...(running ? { offer: view!.offer!.id } : {}),
        },
      });
      const next = order.next;
      const onSite = `${next}${trackingQuery(location.search).replace(/^\?/, '&')}`;
      if (/^https?:\/\//.test(next)) window.location.assign(next);
      // Stripe's checkout is embedded in our checkout page, whose Content-Security-Policy alone allows Stripe.js; a
      // policy belongs to the document, so that page is loaded in full, not reached by client-side navigation.
      // eslint-disable-next-line @next/next/no-location-assign-relative-destination -- a new document, on purpose
      else if (order.provider === 'stripe') window.location.assign(onSite);
      else router.push(onSite);
    } catch (e) {
      const reason = (e as { detail?: { reason?: unknown } }).detail?.reason;
      if (reason === 'email_registered') setRegistered(true);
      else if (reason === 'discount_used') setLost(true);
      setError((e as Error).message);
      setBusy(false);
    }
  };

  return { view, running, method, setMethod, busy, error, registered, note, noteError, onNoteChange, onPay };
}
