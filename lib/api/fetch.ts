import { answeredError, ApiClientError, NETWORK_ERROR, TIMEOUT_MS, unwrap, type RawEnvelope } from './errors';
import type { ApiAnswers, ApiCallOptions, ApiGetCall } from '../contracts/calls';
import { API_BASE, baseHeaders, callTarget, formBody, presentFields, queryFields } from './request-parts';

/** One call made with `fetch`: what the axios client's options give it, as values (lib/api/client.ts). */
export type FetchCall = {
  /** GET by default. A POST sends `data` form-encoded; PUT and DELETE send `json` or nothing, `params` as query. */
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Query of a GET, after the tracking fields (which it overrides on a shared name); of a JSON call, alone. */
  params?: Record<string, string | number | undefined>;
  /** Form-encoded body of a POST, after the tracking fields. */
  data?: Record<string, unknown>;
  /** A JSON body instead (the operator console's API, lib/contracts/ops.ts): no tracking fields are added. */
  json?: unknown;
  /** The page's locale, for `Accept-Language`. */
  language: string;
  /** The tracking fields (docs/rules.md#api): query on GET without `os`, body otherwise. */
  tracking?: Record<string, string | number | undefined>;
  /** Extra headers; empty values are not sent. */
  headers?: Record<string, string | undefined>;
  /** The localized 'Network error, please try again later'. */
  networkMessage?: string;
  /** The request outlives the page (Fetch standard, `keepalive`): for the operation log of a visitor who leaves. */
  keepalive?: boolean;
  /** Resolve to the whole success envelope rather than its payload. */
  whole?: boolean;
  /** `/api_f/v1` on this origin unless given (tests give an absolute URL). */
  baseURL?: string;
};

/**
 * Calls the API with `fetch`, built from the same request parts as the axios client (lib/api/request-parts.ts) and
 * answered the same way (lib/api/errors.ts): resolves to the payload of a success envelope; rejects with an
 * `ApiClientError` carrying the server's localized `msg`, its `code` and HTTP status; an answer without the API's
 * envelope (a proxy's 502 page) carries `networkMessage` and its status; no answer, or none within `TIMEOUT_MS` (30000
 * ms, the body included), gives `networkMessage` with status 0. For the landing pages and free tools, whose public
 * calls should not load and evaluate axios (≈58 KB minified) on a slow phone (bench/lighthouse-report.md), and for the
 * operation log's keep-alive post, and for the operator console (components/ops/parts.tsx `opsCall`, JSON bodies).
 * Signed-in pages use the axios client (lib/api/browser.ts).
 */
export async function fetchApi<T>(path: string, call: FetchCall): Promise<T> {
  const method = call.method ?? 'GET';
  let url = `${call.baseURL ?? API_BASE}${path}`;
  let body: URLSearchParams | string | undefined;
  let type: Record<string, string> = {};
  if (call.json !== undefined || call.method === 'PUT' || call.method === 'DELETE') {
    url = withQuery(url, call.params);
    if (call.json !== undefined) [body, type] = [JSON.stringify(call.json), { 'content-type': 'application/json' }];
  } else if (method === 'GET') {
    // As axios does: a param overrides a tracking field of the same name, and an undefined one removes it.
    url = withQuery(url, { ...queryFields(call.tracking), ...call.params });
  } else {
    body = formBody(presentFields(call.tracking), call.data);
  }
  const extra = Object.entries(call.headers ?? {}).filter((entry): entry is [string, string] => Boolean(entry[1]));
  const network = call.networkMessage ?? NETWORK_ERROR;
  let res: Response;
  let text: string;
  try {
    res = await fetch(url, {
      method,
      body,
      keepalive: call.keepalive,
      headers: { ...baseHeaders(call.language), ...type, ...Object.fromEntries(extra) },
      signal: timeoutSignal(TIMEOUT_MS),
    });
    // The body is read within the same time limit: one that stalls is no answer either.
    text = await res.text();
  } catch {
    throw new ApiClientError(network, 0, 0);
  }
  const data = parseEnvelope(text);
  if (!res.ok) throw answeredError(res.status, data, network);
  return unwrap<T>(data, call.whole ?? false, network);
}

/**
 * `fetchApi` for a GET call keyed in lib/contracts/calls.ts (`'GET /other/places'`): its path from `options.params`,
 * its query `options.query`, the rest of the request as `call` gives it. Resolves to the contract's answer
 * (`ApiAnswers`); rejects as `fetchApi` does. Types only come from the contract: no schema is loaded.
 */
export function fetchCall<K extends ApiGetCall>(
  name: K,
  options: ApiCallOptions<K, false> | undefined,
  call: Omit<FetchCall, 'method' | 'params' | 'data' | 'whole'>,
): Promise<ApiAnswers[K]> {
  const { path } = callTarget(name, options?.params);
  return fetchApi<ApiAnswers[K]>(path, { ...call, params: options?.query as FetchCall['params'] });
}

/** `url` with the defined `fields` appended as its query (`?` or `&`). */
function withQuery(url: string, fields: Record<string, string | number | undefined> = {}): string {
  const query = new URLSearchParams(
    Object.entries(fields)
      .filter((entry): entry is [string, string | number] => entry[1] !== undefined)
      .map(([k, v]) => [k, String(v)]),
  ).toString();
  return query ? `${url}${url.includes('?') ? '&' : '?'}${query}` : url;
}

/** The envelope in `text`, or null when it is not JSON (a proxy's error page, a cut answer). */
function parseEnvelope(text: string): RawEnvelope | null {
  try {
    return JSON.parse(text) as RawEnvelope;
  } catch {
    return null;
  }
}

/**
 * A signal that aborts after `ms`: `AbortSignal.timeout`, or a controller and a timer where it is missing (Safari <
 * 16).
 */
function timeoutSignal(ms: number): AbortSignal {
  if (typeof AbortSignal.timeout === 'function') return AbortSignal.timeout(ms);
  const controller = new AbortController();
  setTimeout(() => controller.abort(), ms);
  return controller.signal;
}
