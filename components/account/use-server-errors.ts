'use client';
import { useState } from 'react';
import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { ApiClientError } from '@/lib/api/client';

/**
 * Routes an API rejection to the form: a message about a known field (the envelope's `field`) goes under that field,
 * anything else to the form-level alert. Returns the alert text and a `report(error)` function.
 */
export function useServerErrors<T extends FieldValues>(setError: UseFormSetError<T>, fields: readonly Path<T>[]) {
  const [alert, setAlert] = useState<string | null>(null);
  const report = (error: unknown) => {
    const field = error instanceof ApiClientError ? (error.detail.field as Path<T> | undefined) : undefined;
    const message = (error as Error).message;
    if (field && fields.includes(field)) setError(field, { message });
    else setAlert(message);
  };
  return { alert, setAlert, report };
}
