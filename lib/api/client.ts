import axios, { AxiosError, type AxiosInstance, type AxiosRequestConfig } from 'axios';
import { answeredError, ApiClientError, NETWORK_ERROR, TIMEOUT_MS, unwrap, type RawEnvelope } from './errors';
import type { ApiCall, ApiCallArgs, ApiResult } from '../contracts/calls';
import { API_BASE, baseHeaders, callTarget, formBody, presentFields, queryFields } from './request-parts';

export { acceptLanguage } from './request-parts';
export {
  ApiClientError,
  MUST_CHANGE_PASSWORD,
  NETWORK_ERROR,
  SESSION_INVALID,
  TIMEOUT_MS,
  type Envelope,
} from './errors';

/**
 * The one browser client of the API (docs/rules.md#api): axios over the request parts of lib/api/request-parts.ts
 * (which the `fetch` calls of lib/api/fetch.ts share, answered alike: lib/api/errors.ts), base `/api_f/v1`, timeout
 * 30000 ms, form-encoded bodies, headers `website_type` (7), `Accept-Language` (the page's language) and
 * `_chamspy_token` when a token is known; tracking fields as query on GET and merged into bodies otherwise. Success
 * (`success === 1`) resolves to `obj`, `page` or `result` (order creation: the whole body). Failure rejects with an
 * `ApiClientError` whose message is the server's localized `msg`; code 20012 (session invalid) is kept on `code`; no
 * response at all gives 'Network error, please try again later' (or `networkMessage`).
 */
export type ApiClientOptions = {
  baseURL?: string;
  language?: string;
  token?: () => string | null | undefined;
  tracking?: () => Record<string, string | number | undefined>;
  /** Extra headers of every request, e.g. `track_id` (the event token, docs/rules.md#entities); empty values are not sent. */
  headers?: () => Record<string, string | undefined>;
  networkMessage?: string;
  adapter?: AxiosRequestConfig['adapter'];
  /** Called after every answered or failed call, e.g. to notice a session cookie the answer set or cleared. */
  afterResponse?: () => void;
};

/** Creates a client; one per page language. */
export function createApiClient(options: ApiClientOptions = {}) {
  const network = options.networkMessage ?? NETWORK_ERROR;
  const http: AxiosInstance = axios.create({
    baseURL: options.baseURL ?? API_BASE,
    timeout: TIMEOUT_MS,
    adapter: options.adapter,
    headers: baseHeaders(options.language ?? 'en'),
  });

  http.interceptors.request.use((config) => {
    const token = options.token?.();
    if (token) config.headers.set('_chamspy_token', token);
    for (const [name, value] of Object.entries(options.headers?.() ?? {})) {
      if (value && !config.headers.has(name)) config.headers.set(name, value);
    }
    const method = (config.method ?? 'get').toLowerCase();
    if (method === 'get') {
      config.params = { ...queryFields(options.tracking?.()), ...config.params };
    } else if (config.data === undefined || (typeof config.data === 'object' && !(config.data instanceof FormData))) {
      config.data = formBody(presentFields(options.tracking?.()), config.data as Record<string, unknown> | undefined);
    }
    return config;
  });

  async function request<T>(config: AxiosRequestConfig, whole = false): Promise<T> {
    let body: RawEnvelope;
    try {
      body = (await http.request<RawEnvelope>(config)).data;
      options.afterResponse?.();
    } catch (error) {
      options.afterResponse?.();
      const err = error as AxiosError<RawEnvelope>;
      if (!err.response) throw new ApiClientError(network, 0, 0);
      throw answeredError(err.response.status, err.response.data, network);
    }
    return unwrap<T>(body, whole, network);
  }

  return {
    /**
     * Makes the call `name` keys in lib/contracts/calls.ts (`'GET /gpsTrace/phoneLocation/{id}'`) with its options:
     * `params` fill the path's `{name}` parts (%-encoded), `query` is the query (GET, DELETE), `body` the form-encoded
     * body, `headers` extra headers. Resolves to the contract's answer (`ApiAnswers`), or with `whole: true` to the
     * success envelope around it (to read `msg`); rejects as every call does (`ApiClientError`). The types come from the
     * contract by `import type`: no schema is loaded.
     */
    call: <K extends ApiCall, W extends boolean = false>(name: K, ...[options]: ApiCallArgs<K, W>) => {
      const { method, path } = callTarget(name, options?.params);
      return request<ApiResult<K, W>>(
        { method, url: path, params: options?.query, data: options?.body, headers: options?.headers },
        options?.whole ?? false,
      );
    },
    /** GET `path` with `params` as query; resolves to the unwrapped payload (`whole`: the envelope, e.g. for `msg`). */
    get: <T>(path: string, params?: Record<string, unknown>, whole = false) =>
      request<T>({ method: 'get', url: path, params }, whole),
    /**
     * POST `data` form-encoded; `whole` resolves to the whole envelope (order creation, docs/rules.md#states); `headers` are added
     * to this request (the operation log's, docs/rules.md#entities).
     */
    post: <T>(path: string, data?: Record<string, unknown>, whole = false, headers?: Record<string, string>) =>
      request<T>({ method: 'post', url: path, data, headers }, whole),
    /** PUT `data` form-encoded. */
    put: <T>(path: string, data?: Record<string, unknown>, whole = false) =>
      request<T>({ method: 'put', url: path, data }, whole),
    /** DELETE. */
    delete: <T>(path: string, whole = false) => request<T>({ method: 'delete', url: path }, whole),
  };
}

export type ApiClient = ReturnType<typeof createApiClient>;
