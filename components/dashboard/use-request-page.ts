'use client';
import { useEffect, useState } from 'react';
import type { ApiClientError } from '@/lib/api/client';
import type { RequestPage, RequestRow } from '@/lib/contracts/locations';
import { useApi } from '../ui/use-api';

/** Why the list could not be read: the API's message and code, and whether the session ended (signed out elsewhere). */
export type RequestPageError = { message: string; code: number; ended: boolean };

/**
 * The subscriber's first page of location requests (`GET /spyContent`, 50 rows), read once: `rows` (null until they
 * come), the subscription's `quota` (null without a live subscription), `unseen` (how many notifications were new on
 * this visit) and `error`. New notifications are marked seen (`POST /spyContent/notifications/seen`) as soon as the
 * page shows them, so they are counted once.
 */
export function useRequestPage(): {
  rows: RequestRow[] | null;
  quota: RequestPage['quota'];
  unseen: number;
  error: RequestPageError | null;
} {
  const api = useApi();
  const [rows, setRows] = useState<RequestRow[] | null>(null);
  const [quota, setQuota] = useState<RequestPage['quota']>(null);
  const [unseen, setUnseen] = useState(0);
  const [error, setError] = useState<RequestPageError | null>(null);

  useEffect(() => {
    api.call('GET /spyContent', { query: { pageNum: 1, pageSize: 50 } }).then(
      (page) => {
        setRows(page.list);
        setQuota(page.quota);
        setUnseen(page.notificationsTotal);
        // Shown once: what is on screen now counts as seen.
        if (page.notificationsTotal > 0) api.call('POST /spyContent/notifications/seen').catch(() => {});
      },
      (e: ApiClientError) => setError({ message: e.message, code: e.code, ended: e.detail.reason === 'session_ended' }),
    );
  }, [api]);
  return { rows, quota, unseen, error };
}
