'use client';
import type { SafetyActionBody, SafetyActionResult } from '@/lib/contracts/safety';
import { useTranslations } from 'next-intl';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { ConfirmDialog } from '../ui/confirm-dialog';
import { useApi } from '../ui/use-api';
import { ReportAbuse } from '../share/report-abuse';

/**
 * Sends one safety-centre action (`POST /api_f/v1/safety/actions`) after the owner confirmed it, then shows the
 * receipt on the page (a `role="status"` line in the owner's words) and re-renders the server list
 * (`router.refresh()`), which keeps this receipt. Returns `run` and the current receipt / error.
 */
function useSafetyAction() {
  const api = useApi();
  const router = useRouter();
  const t = useTranslations('Safety');
  const [busy, setBusy] = useState(false);
  const [receipt, setReceipt] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const run = async (body: SafetyActionBody): Promise<string | null> => {
    setBusy(true);
    setError(null);
    try {
      const done = await api.call('POST /safety/actions', { body });
      setReceipt(receiptOf(done, t));
      router.refresh();
      return null;
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      setError(message);
      return message;
    } finally {
      setBusy(false);
    }
  };
  return { run, busy, receipt, error };
}

/** The receipt of an action in the owner's words. */
function receiptOf(done: SafetyActionResult, t: ReturnType<typeof useTranslations<'Safety'>>): string {
  switch (done.action) {
    case 'stop_all':
      return t('stopAllDone', { stopped: done.stopped ?? 0, declined: done.declined ?? 0 });
    case 'block':
      return t('blockDone');
    case 'unblock':
      return t('unblockDone');
    case 'block_all':
      return t('blockAllDone');
    case 'unblock_all':
      return t('unblockAllDone');
    case 'erase':
      return t('eraseDone', { count: done.deleted ?? 0 });
    case 'report':
      return t('reportDone', { reference: done.reference ?? '' });
  }
}

/** A receipt or an error line under the buttons that caused it. */
function Outcome({ receipt, error }: { receipt: string | null; error: string | null }) {
  return (
    <>
      <p role="status" className="mt-3 font-semibold text-green-800 empty:hidden" data-testid="safety-receipt">
        {receipt ?? ''}
      </p>
      {error && (
        <p role="alert" className="mt-3 text-red-700">
          {error}
        </p>
      )}
    </>
  );
}

/** An action button that asks for confirmation (`ConfirmDialog`) before it runs. */
function Confirmed({
  label,
  confirm,
  onConfirm,
  busy,
  tone = 'plain',
  testId,
}: {
  label: string;
  confirm: string;
  onConfirm: () => void;
  busy: boolean;
  tone?: 'strong' | 'plain';
  testId: string;
}) {
  const t = useTranslations('Safety');
  const [open, setOpen] = useState(false);
  const style =
    tone === 'strong' ? 'w-full border-red-700 bg-red-700 text-white' : 'border-slate-700 bg-white text-slate-900';
  return (
    <>
      <button
        type="button"
        disabled={busy}
        onClick={() => setOpen(true)}
        data-testid={testId}
        className={`min-h-11 rounded-xl border-2 px-4 py-2 text-base font-semibold disabled:opacity-60 ${style}`}
      >
        {busy ? t('working') : label}
      </button>
      <ConfirmDialog
        open={open}
        message={confirm}
        confirmLabel={t('confirm')}
        cancelLabel={t('cancel')}
        onClose={(yes) => {
          setOpen(false);
          if (yes) onConfirm();
        }}
      />
    </>
  );
}

/**
 * The number-wide actions: Stop everything now (in a consent-link session, of that link's requester only), and Block
 * everyone or its undo (the opt-out list; `optedOut`, with `undoable` false when an operator put the number there).
 * `canUndo` and `canBlockEveryone` are false when the session was opened with a consent link, which the requester may
 * hold too: the undo and Block everyone then need a code sent by SMS, and the page says so instead of offering them
 * (server/services/safety/ `canUndoBlocks`, `canBlockEveryone`). Needs the `Safety` messages; `product` names the
 * service.
 */
export function NumberActions({
  optedOut,
  undoable,
  canUndo,
  canBlockEveryone,
  product,
}: {
  optedOut: boolean;
  undoable: boolean;
  canUndo: boolean;
  canBlockEveryone: boolean;
  product: string;
}) {
  const t = useTranslations('Safety');
  const { run, busy, receipt, error } = useSafetyAction();
  return (
    <section className="mt-4 space-y-4 rounded-2xl bg-white p-4 shadow ring-1 ring-slate-200" aria-label={t('stopAll')}>
      <div>
        <Confirmed
          label={t('stopAll')}
          confirm={t('stopAllConfirm')}
          onConfirm={() => void run({ action: 'stop_all' })}
          busy={busy}
          tone="strong"
          testId="stop-all"
        />
        <p className="mt-2 text-sm text-slate-700">{t('stopAllHelp')}</p>
      </div>
      <div>
        {optedOut ? (
          <>
            <p className="font-semibold text-slate-900" data-testid="blocked-all">
              {undoable ? t('blockedAll') : t('operatorBlocked')}
            </p>
            {undoable && !canUndo && <p className="mt-2 text-sm text-slate-700">{t('undoNeedsCode')}</p>}
            {undoable && canUndo && (
              <div className="mt-2">
                <Confirmed
                  label={t('unblockAll')}
                  confirm={t('unblockAllConfirm')}
                  onConfirm={() => void run({ action: 'unblock_all' })}
                  busy={busy}
                  testId="unblock-all"
                />
              </div>
            )}
          </>
        ) : !canBlockEveryone ? (
          <p className="text-sm text-slate-700" data-testid="block-all-needs-code">
            {t('blockAllNeedsCode')}
          </p>
        ) : (
          <>
            <Confirmed
              label={t('blockAll')}
              confirm={t('blockAllConfirm')}
              onConfirm={() => void run({ action: 'block_all' })}
              busy={busy}
              testId="block-all"
            />
            <p className="mt-2 text-sm text-slate-700">{t('blockAllHelp', { product })}</p>
          </>
        )}
      </div>
      <Outcome receipt={receipt} error={error} />
    </section>
  );
}

/**
 * One request's actions: Block this requester (or Unblock, when `canUndo`: a session opened with an SMS code), Delete
 * what was shared (when the requester can still see positions) and Report (the consent page's report dialog, components/share/report-abuse.tsx, with its optional
 * reason; the receipt names the request's reference). Needs the `Safety` and `Consent` messages.
 */
export function RequestActions({
  requestId,
  blocked,
  canUndo,
  positions,
  reported,
  product,
}: {
  requestId: string;
  blocked: boolean;
  canUndo: boolean;
  positions: number;
  reported: boolean;
  product: string;
}) {
  const t = useTranslations('Safety');
  const { run, busy, receipt, error } = useSafetyAction();
  return (
    <div className="mt-3">
      <div className="flex flex-wrap gap-2">
        {blocked && !canUndo ? (
          <p className="text-sm text-slate-700">{t('undoNeedsCode')}</p>
        ) : blocked ? (
          <button
            type="button"
            disabled={busy}
            onClick={() => void run({ action: 'unblock', requestId })}
            className="min-h-11 rounded-xl border-2 border-slate-700 px-4 py-2 font-semibold disabled:opacity-60"
          >
            {t('unblock')}
          </button>
        ) : (
          <Confirmed
            label={t('block')}
            confirm={t('blockConfirm')}
            onConfirm={() => void run({ action: 'block', requestId })}
            busy={busy}
            testId="block-requester"
          />
        )}
        {positions > 0 && (
          <Confirmed
            label={t('erase')}
            confirm={t('eraseConfirm')}
            onConfirm={() => void run({ action: 'erase', requestId })}
            busy={busy}
            testId="erase"
          />
        )}
      </div>
      <ReportAbuse
        product={product}
        reported={reported}
        declined={false}
        report={(reason) => run({ action: 'report', requestId, reason })}
      />
      <Outcome receipt={receipt} error={error} />
    </div>
  );
}
