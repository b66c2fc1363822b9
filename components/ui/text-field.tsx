'use client';
import type { InputHTMLAttributes, ReactNode } from 'react';
import { FieldError } from './field-error';

type Props = InputHTMLAttributes<HTMLInputElement> & {
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
export function TextField({ id, label, error, hint, className = '', ...input }: Props) {
  return (
    <div className={className}>
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      <input
        id={id}
        aria-invalid={!!error}
        aria-describedby={`${hint ? `${id}-hint ` : ''}${id}-error`}
        className="field-input"
        {...input}
      />
      {hint && (
        <p id={`${id}-hint`} className="mt-1 text-xs text-slate-600">
          {hint}
        </p>
      )}
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}
