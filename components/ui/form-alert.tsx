/** A form-level message: an error (`role="alert"`) or a confirmation (`role="status"`). */
export function FormAlert({ message, tone = 'error' }: { message: string | null; tone?: 'error' | 'success' }) {
  if (!message) return null;
  return tone === 'error' ? (
    <p role="alert" className="rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-800">
      {message}
    </p>
  ) : (
    <p role="status" className="rounded-lg border border-green-200 bg-green-50 p-3 text-sm text-green-900">
      {message}
    </p>
  );
}

/** The primary submit button of a form, showing `busyLabel` while the form is submitting. */
export function SubmitButton({ busy, label, busyLabel }: { busy: boolean; label: string; busyLabel: string }) {
  return (
    <button
      type="submit"
      disabled={busy}
      className="w-full rounded-lg bg-brand px-4 py-3 font-semibold text-white hover:bg-brand-dark disabled:opacity-60"
    >
      {busy ? busyLabel : label}
    </button>
  );
}
