'use client';
import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { useCallback, useState, type FormEvent } from 'react';
import type { ApiClientError } from '@/lib/api/client';
import type { UsernameLookupView } from '@/lib/contracts/username-lookup';
import { usernameProblem } from '@/lib/validation/username';
import { useApi } from '../ui/use-api';
import { usePolling } from '../ui/use-polling';

/** How often a running lookup's progress is read (ms). */
const PROGRESS_MS = 1000;

/**
 * The reverse username lookup's state and calls. The form: `username`, `nsfw` ("also adult sites"), `fieldError`
 * (`usernameProblem`'s, or the API's 422 message), `busy` while a start is sent, and `onSubmit`, which starts a
 * lookup (`POST /usernameLookup`) and puts its id in the address (`?id=`). The lookup named by `?id=`: `view`, read
 * every PROGRESS_MS while it runs (`GET /usernameLookup/{id}`), `gone` once the id is expired or unknown (404), and
 * `onStop` (`POST /usernameLookup/{id}/stop`). `error`: any other failure's message, such as a start refused as busy.
 */
export function useUsernameLookup() {
  const api = useApi();
  const router = useRouter();
  const pathname = usePathname();
  const id = useSearchParams().get('id');
  const [username, setUsername] = useState('');
  const [nsfw, setNsfw] = useState(false);
  const [fieldError, setFieldError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [view, setView] = useState<UsernameLookupView | null>(null);
  const [gone, setGone] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const step = useCallback(
    async (active: () => boolean) => {
      if (!id) return false;
      try {
        const next = await api.call('GET /usernameLookup/{id}', { params: { id } });
        if (!active()) return false;
        setView(next);
        setError(null);
        return next.status === 'running';
      } catch (e) {
        if (!active()) return false;
        if ((e as ApiClientError).status === 404) {
          setGone(true);
          return false;
        }
        setError((e as Error).message);
        return true;
      }
    },
    [api, id],
  );
  usePolling(step, PROGRESS_MS);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const problem = usernameProblem(username);
    setFieldError(problem ?? undefined);
    setError(null);
    if (problem) return;
    setBusy(true);
    try {
      const started = await api.call('POST /usernameLookup', { body: { username, nsfw } });
      setView(null);
      setGone(false);
      router.replace(`${pathname}?id=${started.id}`, { scroll: false });
    } catch (e) {
      if ((e as ApiClientError).status === 422) setFieldError((e as Error).message);
      else setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };

  const onStop = async () => {
    if (!id) return;
    try {
      setView(await api.call('POST /usernameLookup/{id}/stop', { params: { id } }));
    } catch (e) {
      setError((e as Error).message);
    }
  };

  return { username, setUsername, nsfw, setNsfw, fieldError, busy, onSubmit, view, gone, error, onStop };
}
