'use client';
import type { InputHTMLAttributes, ReactNode, TextareaHTMLAttributes } from 'react';
import { FieldError } from './field-error';

export type TextFieldProps = InputHTMLAttributes<HTMLInputElement> & {
  id: string;
  label: string;
  /** The field's error: a `Validation.*` key or a localized server message. */
  error?: string;
  /** Help text under the field. */
  hint?: ReactNode;
  className?: string;
};

/**
 * A labelled text input with its hint and error, wired for screen readers (`aria-invalid`, `aria-describedby`).
 * Spread react-hook-form's `register(name)` into it (React 19 passes `ref` as a prop).
 */
export function TextField({ id, label, error, hint, className = '', ...input }: TextFieldProps) {
  return (
    <LabelledField id={id} label={label} error={error} hint={hint} className={className}>
      <input
        id={id}
        aria-invalid={!!error}
        aria-describedby={describedBy(id, hint)}
        className="field-input"
        {...input}
      />
    </LabelledField>
  );
}

/**
 * A labelled text area with its hint, an optional live count and its error, wired for screen readers like TextField
 * (`aria-describedby` names `<id>-hint`, `<id>-count` and `<id>-error`). `counter` is the count's text and whether the
 * text is over its limit (then the count turns red; the limit itself is checked by the form's schema).
 */
export function TextAreaField({
  id,
  label,
  error,
  hint,
  counter,
  className = '',
  ...area
}: TextareaHTMLAttributes<HTMLTextAreaElement> & {
  id: string;
  label: string;
  /** The field's error: a `Validation.*` key or a localized server message. */
  error?: string;
  hint?: ReactNode;
  counter?: Counter;
  className?: string;
}) {
  return (
    <LabelledField id={id} label={label} error={error} hint={hint} counter={counter} className={className}>
      <textarea
        id={id}
        aria-invalid={!!error}
        aria-describedby={describedBy(id, hint, counter)}
        className="field-input"
        {...area}
      />
    </LabelledField>
  );
}

/** A live count under a field: its text, and whether the text is over its limit. */
type Counter = { text: string; over: boolean };

/** The ids a field's control is described by: its hint and count when shown, and its error. */
function describedBy(id: string, hint?: ReactNode, counter?: Counter): string {
  return [hint && `${id}-hint`, counter && `${id}-count`, `${id}-error`].filter(Boolean).join(' ');
}

/** The frame of TextField and TextAreaField: the label, the control, the hint and count row, the error. */
function LabelledField({
  id,
  label,
  error,
  hint,
  counter,
  className,
  children,
}: {
  id: string;
  label: string;
  error?: string;
  hint?: ReactNode;
  counter?: Counter;
  className: string;
  children: ReactNode;
}) {
  return (
    <div className={className}>
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      {children}
      {(hint || counter) && (
        <div className="mt-1 flex justify-between gap-3 text-xs text-slate-600">
          {hint && <p id={`${id}-hint`}>{hint}</p>}
          {counter && (
            <p id={`${id}-count`} className={`ml-auto shrink-0 tabular-nums ${counter.over ? 'text-red-700' : ''}`}>
              {counter.text}
            </p>
          )}
        </div>
      )}
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}

/**
 * Autofill token, keyboard and type of a field by what it holds (the HTML Standard's autofill field names and
 * `inputmode`): `account` is the e-mail that names an account (`username`, so password managers pair it with the
 * password), `email` any other address, `code` a 6-digit code from an e-mail or SMS.
 */
export const FIELD_KINDS = {
  account: { type: 'email', autoComplete: 'username' },
  email: { type: 'email', autoComplete: 'email' },
  name: { autoComplete: 'name' },
  password: { type: 'password', autoComplete: 'current-password' },
  newPassword: { type: 'password', autoComplete: 'new-password' },
  code: { inputMode: 'numeric', autoComplete: 'one-time-code', maxLength: 6 },
} as const satisfies Record<string, InputHTMLAttributes<HTMLInputElement>>;
