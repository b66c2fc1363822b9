'use client';
import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import { buyAgainPhone } from '@/lib/routing/rules';
import { readUserInfo } from '@/lib/user-info';
import type { LocateBoxValues } from '@/lib/validation/schemas';
import type { LocateBoxForm } from './locate-box-form';

/** A field's `onChange` option for react-hook-form's `register`, such as the phone formatter's. */
type FieldOptions = { onChange: (e: { target: HTMLInputElement }) => unknown };

/** What a submit of the locate box does with the valid values and the form (to set errors on its fields). */
export type LocateCheck = (values: LocateBoxValues, form: LocateBoxForm['form']) => Promise<void>;

/**
 * The locate box's form as it arrives: react-hook-form comes on the first touch of the box (`want`, which sets
 * `wanted`; the box then renders ./locate-box-form.tsx, which hands the form to `onForm`). Until then the fields are
 * plain inputs that keep what is typed (the form reads it when it registers them). Returns those, `control` (null
 * before the form arrives), `field` (a field's props: react-hook-form's `register` once loaded, its name and
 * `onChange` before), the fields' `errors` (messages by field), `isSubmitting`, and `readPhone` / `writePhone` for the
 * phone formatter (the form's value once it has arrived, the input's before).
 */
export function useLazyLocateForm() {
  const [wanted, setWanted] = useState(false);
  const [control, setControl] = useState<LocateBoxForm | null>(null);
  const latest = useRef<LocateBoxForm | null>(null);
  const onForm = useCallback((next: LocateBoxForm) => {
    latest.current = next;
    setControl(next);
  }, []);
  const readPhone = useCallback(
    (input: HTMLInputElement) => latest.current?.form.getValues('phone') ?? input.value,
    [],
  );
  const writePhone = useCallback((value: string, input: HTMLInputElement) => {
    if (latest.current) latest.current.form.setValue('phone', value);
    else input.value = value;
  }, []);
  const errors: LocateBoxForm['errors'] = control?.errors ?? {};
  const isSubmitting = control?.isSubmitting ?? false;
  const want = () => setWanted(true);
  const field = (name: keyof LocateBoxValues, options?: FieldOptions) =>
    control ? control.form.register(name, options) : { name, ...options };
  return { wanted, want, control, onForm, readPhone, writePhone, field, errors, isSubmitting };
}

/** A field's props from the locate box's form (`field` of useLazyLocateForm). */
export type LocateField = ReturnType<typeof useLazyLocateForm>['field'];

/**
 * The locate box's submit handler: with the form loaded, react-hook-form validates and runs `check`; before it, the
 * submit is held, the form is asked for (`want`) and the held submit is made once it arrives (its fields registered
 * with what they hold). `box` is what useLazyLocateForm returned.
 */
export function useSubmitWhenReady(
  box: Pick<ReturnType<typeof useLazyLocateForm>, 'control' | 'want'>,
  check: LocateCheck,
) {
  const { control, want } = box;
  const pendingSubmit = useRef(false);
  const submit = (form: LocateBoxForm['form']) => form.handleSubmit((values) => check(values, form));
  const onCheck = (event?: FormEvent) => {
    if (control) return submit(control.form)(event);
    event?.preventDefault();
    pendingSubmit.current = true;
    want();
  };
  useEffect(() => {
    if (!control || !pendingSubmit.current) return;
    pendingSubmit.current = false;
    void submit(control.form)();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, when the form arrives
  }, [control]);
  return onCheck;
}

/**
 * "Buy again" (buyAgainPath): the number it names and the signed-in account's e-mail fill the box, which would
 * otherwise open empty for a buyer who just had them. Written into the plain inputs (ids `phone` and `email`), which
 * the form reads when it registers them; anything the visitor already typed is kept.
 */
export function useBuyAgainPrefill() {
  useEffect(() => {
    const phone = buyAgainPhone(location.search);
    if (phone === null) return;
    const filled = { phone, email: readUserInfo()?.email ?? '' };
    for (const [id, value] of Object.entries(filled)) {
      const input = document.getElementById(id) as HTMLInputElement | null;
      if (input && !input.value && value) input.value = value;
    }
  }, []);
}
