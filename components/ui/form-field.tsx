'use client';
import { useFormState, type FieldValues, type Path, type UseFormReturn } from 'react-hook-form';
import { FIELD_KINDS, TextField, type TextFieldProps } from './text-field';

// Its own module, apart from TextField: react-hook-form stays out of the pages whose forms load it only on demand
// (the home page's locate box; scripts/check-budgets.mjs).

/**
 * A TextField bound to a react-hook-form field: `name` registered on `form`, its error read with `useFormState` (so
 * the field re-renders alone when its error changes), the input attributes of `kind` (FIELD_KINDS). The id is `name`
 * unless given. Other props go to TextField.
 */
export function FormField<T extends FieldValues>({
  form,
  name,
  kind,
  id,
  ...rest
}: Omit<TextFieldProps, 'id' | 'error' | 'name' | 'form' | 'value' | 'onChange' | 'onBlur' | 'ref'> & {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any form context and transformed values
  form: UseFormReturn<T, any, any>;
  name: Path<T>;
  kind?: keyof typeof FIELD_KINDS;
  id?: string;
}) {
  const formState = useFormState({ control: form.control, name });
  const { error } = form.getFieldState(name, formState);
  return (
    <TextField
      id={id ?? name}
      {...(kind ? FIELD_KINDS[kind] : {})}
      {...rest}
      error={error?.message}
      {...form.register(name)}
    />
  );
}
