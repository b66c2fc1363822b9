import { browserHeaders, browserTracking } from './browser-fields';
import type { ApiAnswers, ApiCallOptions, ApiGetCall } from '../contracts/calls';
import { fetchApi, fetchCall } from './fetch';

/**
 * The GET call `name` (lib/contracts/calls.ts) from this browser with `fetch` (lib/api/fetch.ts `fetchCall`): the
 * page's `locale`, this browser's tracking fields and `track_id` (lib/api/browser-fields.ts). For the public reads of
 * the landing pages and free tools (the visitor's IP country and address, a number's facts), which load no axios.
 * Resolves to the contract's answer; rejects with `ApiClientError` (the server's localized message, or
 * `networkMessage` without an answer).
 */
export function browserCall<K extends ApiGetCall>(
  locale: string,
  networkMessage: string,
  name: K,
  options?: ApiCallOptions<K, false>,
): Promise<ApiAnswers[K]> {
  return fetchCall(name, options, {
    language: locale,
    networkMessage,
    tracking: browserTracking(),
    headers: browserHeaders(),
  });
}

/**
 * POSTs `data` form-encoded to `path` with `keepalive` (Fetch standard): the request outlives the page, so the view of
 * a visitor who leaves at once still arrives. For the operation log, whose answer nothing reads. Carries this
 * browser's tracking fields in the body, `track_id`, the page's `language` and `headers`. Resolves when the API
 * answered success; rejects with `ApiClientError` otherwise.
 */
export async function postKeepalive(
  path: string,
  data: Record<string, unknown>,
  language: string,
  headers: Record<string, string> = {},
): Promise<void> {
  await fetchApi(path, {
    method: 'POST',
    keepalive: true,
    data,
    language,
    tracking: browserTracking(),
    headers: { ...browserHeaders(), ...headers },
  });
}
