'use client';
import { useEffect, useRef } from 'react';

/**
 * A modal confirm/cancel dialog on the native `<dialog>` element (focus trapped and Escape handled by the browser).
 * `onClose(true)` when confirmed, `onClose(false)` when cancelled or dismissed.
 */
export function ConfirmDialog({
  open,
  message,
  confirmLabel,
  cancelLabel,
  onClose,
}: {
  open: boolean;
  message: string;
  confirmLabel: string;
  cancelLabel: string;
  onClose: (confirmed: boolean) => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog
      ref={ref}
      onCancel={() => onClose(false)}
      className="m-auto max-w-sm rounded-2xl p-6 shadow-xl backdrop:bg-slate-900/50"
    >
      <p className="text-slate-900">{message}</p>
      <div className="mt-6 flex gap-3">
        <button
          type="button"
          onClick={() => onClose(false)}
          className="flex-1 rounded-lg border border-slate-300 px-4 py-2"
        >
          {cancelLabel}
        </button>
        <button
          type="button"
          onClick={() => onClose(true)}
          className="flex-1 rounded-lg bg-brand px-4 py-2 font-semibold text-white"
        >
          {confirmLabel}
        </button>
      </div>
    </dialog>
  );
}
