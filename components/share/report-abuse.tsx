'use client';
import { useTranslations } from 'next-intl';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { TextAreaField } from '../ui/text-field';

/** Longest reason the API takes (code points): the owner note's limit, OWNER_NOTE.max in lib/validation. */
const REASON_MAX = 140;

/**
 * Report abuse on the owner's page (docs/rules.md#security, #honest-copy): offered in every state but `reported`, after a Decline or
 * an expired link too (`declined` adds a line saying what a report does). The button opens a dialog (native
 * `<dialog>`: focus kept inside, Escape closes) that says what a report does, asks an optional reason (at most 140
 * characters; the API refuses links and phone numbers and its localized message is shown in the dialog, which stays
 * open) and sends it through `report`, which resolves to null once the report is recorded or to the message to show.
 * Once `reported`, it shows neutral safety advice instead: who to contact when feeling unsafe, and that requests to
 * this number are blocked (which the report did). Needs the `Consent` messages; `product` names the service.
 */
export function ReportAbuse({
  product,
  reported,
  declined,
  report,
}: {
  product: string;
  reported: boolean;
  declined: boolean;
  report: (reason: string) => Promise<string | null>;
}) {
  const t = useTranslations('Consent');
  const dialog = useRef<HTMLDialogElement>(null);
  const [open, setOpen] = useState(false);
  // Ids of its own, so that several reports on one page (the safety centre lists many requests) never share one.
  const id = useId();

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) element.showModal();
    if (!open && element.open) element.close();
  }, [open]);

  if (reported)
    return (
      <p className="mt-4 rounded-lg bg-slate-50 p-3 text-sm text-slate-700" data-testid="safety-advice">
        {t('safety')}
      </p>
    );

  return (
    <div className="mt-6" data-testid="report-abuse">
      {declined && <p className="mb-2 text-sm text-slate-700">{t('reportAfterDecline')}</p>}
      <button
        type="button"
        onClick={() => setOpen(true)}
        className="min-h-11 text-sm font-medium text-red-700 underline"
      >
        {t('report')}
      </button>
      <dialog
        ref={dialog}
        aria-labelledby={`${id}-title`}
        onCancel={() => setOpen(false)}
        onClose={() => setOpen(false)}
        className="m-auto w-[calc(100%-2rem)] max-w-sm rounded-2xl p-6 shadow-xl backdrop:bg-slate-900/50"
      >
        <ReportForm id={id} product={product} report={report} onDone={() => setOpen(false)} />
      </dialog>
    </div>
  );
}

/**
 * The report dialog's form (ids under `id`): what a report does for `product`, the optional reason with its count
 * against REASON_MAX, Cancel and Send. Send calls `report` and, once it resolves to null (recorded), `onDone`; a
 * message it resolves to stays shown under the reason. Cancel calls `onDone` and keeps what was typed.
 */
function ReportForm({
  id,
  product,
  report,
  onDone,
}: {
  id: string;
  product: string;
  report: (reason: string) => Promise<string | null>;
  onDone: () => void;
}) {
  const t = useTranslations('Consent');
  const [reason, setReason] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [sending, setSending] = useState(false);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setSending(true);
    const refused = await report(reason);
    setSending(false);
    setProblem(refused);
    if (!refused) onDone();
  };
  const count = [...reason].length;

  return (
    <form onSubmit={submit} noValidate>
      <h2 id={`${id}-title`} className="text-lg font-semibold text-slate-900">
        {t('report')}
      </h2>
      <p className="mt-2 text-slate-800">{t('reportConfirm', { product })}</p>
      <TextAreaField
        id={`${id}-reason`}
        label={t('reportReasonLabel')}
        className="mt-4"
        name="reason"
        rows={2}
        value={reason}
        onChange={(e) => setReason(e.target.value)}
        hint={t('reportReasonHint')}
        counter={{ text: `${count}/${REASON_MAX}`, over: count > REASON_MAX }}
        error={problem ?? undefined}
      />
      <div className="mt-6 flex gap-3">
        <button type="button" onClick={onDone} className="min-h-11 flex-1 rounded-lg border border-slate-300 px-4 py-2">
          {t('cancel')}
        </button>
        <button
          type="submit"
          disabled={sending}
          className="min-h-11 flex-1 rounded-lg bg-red-700 px-4 py-2 font-semibold text-white disabled:opacity-60"
        >
          {t('reportSend')}
        </button>
      </div>
    </form>
  );
}
