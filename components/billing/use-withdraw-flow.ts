'use client';
import { useSearchParams } from 'next/navigation';
import { useEffect, useRef, useState } from 'react';
import type { Acknowledgement, ContractView, WithdrawLink } from '@/lib/contracts/withdraw';
import { readUserInfo } from '@/lib/user-info';
import { useApi } from '../ui/use-api';
import type { LinkFormMessage } from './email-link-form';

/** Who may confirm: the holder of a usable e-mailed link (`token`), or the signed-in account. */
type Source = { kind: 'link'; token: string } | { kind: 'account' };
type LinkState = WithdrawLink['state'];

/** The browser's IANA time zone, sent with the confirmation so the acknowledgement states it. */
function browserZone(): string | undefined {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}

/**
 * The withdrawal page's state and calls. With `?token=` it reads the link (`GET /portal/withdraw/link/{token}`:
 * `linkState`, the contracts, `completedAt` of a used one); without, the signed-in account's contracts
 * (`GET /admin/withdraw/contracts`), `checked` once that has answered. `onConfirm(code)` posts the confirmation with
 * the browser's zone (`POST /portal/withdraw/confirm` with the token, or `POST /admin/withdraw/confirm`) and holds
 * the acknowledgement in `done`. `message`: the e-mail step's result or an error. `usable`: the contracts may be
 * confirmed; `showForm`: the e-mail step is shown.
 */
export function useWithdrawFlow() {
  const api = useApi();
  const token = useSearchParams().get('token');
  const [source, setSource] = useState<Source | null>(null);
  const [linkState, setLinkState] = useState<LinkState | null>(null);
  /** When the withdrawal made with a used link was completed (ISO): all a used link shows. */
  const [completedAt, setCompletedAt] = useState<string | null>(null);
  const [contracts, setContracts] = useState<ContractView[] | null>(null);
  const [done, setDone] = useState<Acknowledgement | null>(null);
  const [busy, setBusy] = useState(false);
  /** Without a token: whether the sign-in check has answered (the e-mail form waits for it). */
  const [checked, setChecked] = useState(false);
  const [message, setMessage] = useState<LinkFormMessage | null>(null);

  useEffect(() => {
    if (token) {
      api.call('GET /portal/withdraw/link/{token}', { params: { token } }).then(
        (v) => {
          setLinkState(v.state);
          setContracts(v.contracts);
          setCompletedAt(v.completedAt);
          if (v.state === 'usable') setSource({ kind: 'link', token });
        },
        (e: Error) => setMessage({ text: e.message, role: 'alert' }),
      );
      return;
    }
    // Signed in: straight to the confirmation step; otherwise (401, 403) the e-mail form. A browser without the
    // readable `userInfo` cookie has no session here: the form, without a request bound to answer 401.
    const signedIn = readUserInfo()
      ? api.call('GET /admin/withdraw/contracts')
      : Promise.reject(new Error('not signed in'));
    signedIn.then(
      (v) => {
        setContracts(v.contracts);
        setSource({ kind: 'account' });
        setChecked(true);
      },
      () => setChecked(true),
    );
  }, [api, token]);

  const onConfirm = async (code: string) => {
    if (!source) return;
    setBusy(true);
    setMessage(null);
    try {
      const zone = browserZone();
      const body = { code, ...(zone ? { timeZone: zone } : {}) };
      const ack =
        source.kind === 'link'
          ? await api.call('POST /portal/withdraw/confirm', { body: { ...body, token: source.token } })
          : await api.call('POST /admin/withdraw/confirm', { body });
      setDone(ack);
    } catch (e) {
      setMessage({ text: (e as Error).message, role: 'alert' });
    }
    setBusy(false);
  };

  const usable = source?.kind === 'account' || linkState === 'usable';
  const showForm = !done && !source && (token ? linkState === 'expired' || linkState === 'unknown' : checked);
  return {
    token,
    source,
    linkState,
    completedAt,
    contracts,
    done,
    busy,
    message,
    setMessage,
    onConfirm,
    usable,
    showForm,
  };
}

/**
 * Refs for the page's section (`top`) and the acknowledgement (`ack`): once `done` holds the acknowledgement, the
 * section is scrolled to the top of the screen and the acknowledgement focused.
 */
export function useRevealAcknowledgement(done: Acknowledgement | null) {
  const top = useRef<HTMLElement>(null);
  const ack = useRef<HTMLDivElement>(null);
  // Confirm sits below the contract: on a phone the acknowledgement that replaces it would start above the screen.
  // Brought into view (title, date and time first) and focused, so it is seen and read at once.
  useEffect(() => {
    if (!done) return;
    top.current?.scrollIntoView({ block: 'start' });
    ack.current?.focus({ preventScroll: true });
  }, [done]);
  return { top, ack };
}
