import { fetchApi, type FetchCall } from './fetch';
import { callTarget } from './request-parts';
import type { OpsAnswers, OpsBodies, OpsCall } from '../contracts/ops';

/** What a console call takes besides its name: the path's `{name}` values, the query and the JSON body. */
export type OpsCallOptions<K extends OpsCall> = {
  params?: Record<string, string>;
  query?: Record<string, string | number>;
} & (K extends keyof OpsBodies ? { body: OpsBodies[K] } : { body?: undefined });

/**
 * Calls the console API (`/api_f/v1/ops…`) through the site's fetch transport (./fetch.ts `fetchApi`) with a
 * JSON body and the console's `website_type` header. `call` names the route as lib/contracts/ops.ts does (`'POST
 * /orders/{id}/refund'`), so its body and its answer are the contract's types (`OpsBodies`, `OpsAnswers`). Resolves to
 * the envelope's `obj`; rejects with an `ApiClientError` carrying the envelope's message (or a network message) and the
 * HTTP status, so every form shows the server's own words.
 */
export async function opsCall<K extends OpsCall>(
  call: K,
  options: OpsCallOptions<K> = {} as OpsCallOptions<K>,
): Promise<OpsAnswers[K]> {
  const { method, path } = callTarget(call, options.params);
  return fetchApi<OpsAnswers[K]>(`/ops${path}`, {
    method: method as FetchCall['method'],
    params: options.query,
    json: options.body,
    language: 'en',
    headers: { website_type: 'ops' },
    networkMessage: 'Network error: the server did not answer.',
  });
}
