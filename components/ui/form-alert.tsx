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

/**
 * The primary submit button of a form, disabled and showing `busyLabel` while the form is submitting; as wide as the
 * form unless `wide` is false (beside a field), or on phones only (`'phone'`: its own width from the `sm` breakpoint
 * up). At least 44 px high, the
 * touch target of WCAG 2.2 SC 2.5.5 (Target Size, Enhanced).
 */
export function SubmitButton({
  busy,
  label,
  busyLabel,
  wide = true,
}: {
  busy: boolean;
  label: string;
  busyLabel: string;
  wide?: boolean | 'phone';
}) {
  return (
    <button
      type="submit"
      disabled={busy}
      className={`${wide === 'phone' ? 'w-full sm:w-auto ' : wide ? 'w-full ' : ''}min-h-11 rounded-lg bg-brand px-5 py-2.5 font-semibold text-white hover:bg-brand-dark disabled:opacity-60`}
    >
      {busy ? busyLabel : label}
    </button>
  );
}

/**
 * The button of an action that ends something (cancelling a subscription, withdrawing from a contract): red, disabled
 * and showing `busyLabel` while `busy`; at least 44 px high like SubmitButton (WCAG 2.2 SC 2.5.5).
 */
export function DangerButton({
  busy,
  label,
  busyLabel,
  onClick,
}: {
  busy: boolean;
  label: string;
  busyLabel: string;
  onClick: () => void;
}) {
  return (
    <button
      type="button"
      disabled={busy}
      onClick={onClick}
      className="min-h-11 rounded-lg bg-red-700 px-5 py-3 font-semibold text-white disabled:opacity-60"
    >
      {busy ? busyLabel : label}
    </button>
  );
}
