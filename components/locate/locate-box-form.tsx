'use client';
import { useLayoutEffect } from 'react';
import { useForm, type UseFormReturn } from 'react-hook-form';
import type { LocateBoxValues } from '@/lib/validation/schemas';
import { lazyZodResolver } from '../ui/lazy-resolver';

/** Validation of the shared schema, loaded with zod on the first submit. */
const resolver = lazyZodResolver<LocateBoxValues>(() =>
  import('@/lib/validation/schemas').then((m) => m.locateBoxSchema),
);

/** What the locate box renders from its form: the form's methods, each field's error message and `isSubmitting`. */
export type LocateBoxForm = {
  form: UseFormReturn<LocateBoxValues>;
  errors: Partial<Record<keyof LocateBoxValues, string>>;
  isSubmitting: boolean;
};

/**
 * The locate box's react-hook-form, in a chunk of its own that the box loads on the visitor's first touch of it
 * (components/locate/locate-box.tsx), so react-hook-form is not part of the landing pages' first-load JavaScript
 * (scripts/check-budgets.mjs). Renders nothing: it hands the form, and again each time an error or `isSubmitting`
 * changes, to `onChange`, and the box renders the fields with it. No default values: registering a field reads what
 * the visitor may already have typed into it.
 */
export default function LocateBoxFormControl({ onChange }: { onChange: (form: LocateBoxForm) => void }) {
  const form = useForm<LocateBoxValues>({ resolver });
  const { errors, isSubmitting } = form.formState;
  const messages = {
    phone: errors.phone?.message,
    requesterName: errors.requesterName?.message,
    email: errors.email?.message,
    terms: errors.terms?.message,
  };
  const key = JSON.stringify([messages, isSubmitting]);
  useLayoutEffect(() => {
    onChange({ form, errors: messages, isSubmitting });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `key` stands for the messages and isSubmitting
  }, [key, form, onChange]);
  return null;
}
