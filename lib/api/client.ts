import axios, { AxiosError, type AxiosInstance, type AxiosRequestConfig } from 'axios';
import { API_BASE, baseHeaders, formBody, presentFields } from './request-parts';

export { acceptLanguage } from './request-parts';

/**
 * The one browser client of the API (docs/rules.md#api): axios over the request parts of lib/api/request-parts.ts
 * (which the operation log's keep-alive post, lib/api/keepalive.ts, shares), base `/api_f/v1`, timeout 30000 ms,
 * form-encoded bodies, headers `website_type` (7), `Accept-Language` (the page's language) and `_chamspy_token`
 * when a token is known; tracking fields as query on GET and merged into bodies otherwise.
 * Success (`success === 1`) resolves to `obj`, `page` or `result` (order creation: the whole body). Failure rejects
 * with an `ApiClientError` whose message is the server's localized `msg`; code 20012 (session invalid) is kept on
 * `code`; no response at all gives 'Network error, please try again later' (or `networkMessage`).
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

export const NETWORK_ERROR = 'Network error, please try again later';
export const SESSION_INVALID = 20012;
/** Code of a session opened with a temporary password, which may only change the password (server ErrorCode). */
export const MUST_CHANGE_PASSWORD = 40301;
export const TIMEOUT_MS = 30_000;

/** Rejection of an API call: `message` is user-facing, `code`/`status` as answered (0 without a response). */
export class ApiClientError extends Error {
  constructor(
    message: string,
    readonly code: number,
    readonly status: number,
    readonly detail: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'ApiClientError';
  }
}

type RawEnvelope = { success: number; msg?: string; code?: number; obj?: unknown; page?: unknown; result?: unknown };

/** Creates a client; one per page language. */
export function createApiClient(options: ApiClientOptions = {}) {
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
    const tracking = presentFields(options.tracking?.());
    const method = (config.method ?? 'get').toLowerCase();
    if (method === 'get') {
      const { os: _os, ...query } = tracking; // docs/rules.md#api: os is not sent on GET
      config.params = { ...query, ...config.params };
    } else if (config.data === undefined || (typeof config.data === 'object' && !(config.data instanceof FormData))) {
      config.data = formBody(tracking, config.data as Record<string, unknown> | undefined);
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
      if (!err.response) throw new ApiClientError(options.networkMessage ?? NETWORK_ERROR, 0, 0);
      const data = err.response.data;
      const { success: _s, msg, code, ...detail } = (data && typeof data === 'object' ? data : {}) as RawEnvelope;
      throw new ApiClientError(msg || err.message, code ?? err.response.status, err.response.status, detail);
    }
    if (body?.success !== 1) throw new ApiClientError(body?.msg ?? '', body?.code ?? 0, 200);
    if (whole) return body as T;
    return (body.obj ?? body.page ?? body.result) as T;
  }

  return {
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

/** The success envelope, for calls made with `whole`. */
export type Envelope<T> = { success: 1; msg: string; obj: T };
