import { browserHeaders, browserTracking } from './browser-fields';
import { API_BASE, baseHeaders, formBody, presentFields } from './request-parts';

/**
 * POSTs `data` form-encoded to the API at `path` the way the client does (lib/api/request-parts.ts: the same base,
 * headers, tracking fields in the body, `track_id`), plus `headers`, with `fetch` and `keepalive` (Fetch standard): the
 * request outlives the page, so the view of a visitor who leaves at once still arrives. For the operation log, whose
 * answer nothing reads; it does not load the axios client, so a landing page evaluates no axios (≈58 KB minified)
 * just after it loads, when a visitor on a slow phone starts typing (bench/lighthouse-report.md). Resolves when the API
 * answered success; rejects with the status or the envelope's `msg` otherwise, or with fetch's TypeError without an
 * answer.
 */
export async function postKeepalive(
  path: string,
  data: Record<string, unknown>,
  language: string,
  headers: Record<string, string> = {},
): Promise<void> {
  const extra = Object.fromEntries(Object.entries(browserHeaders()).filter(([, v]) => v)) as Record<string, string>;
  const res = await fetch(`${API_BASE}${path}`, {
    method: 'POST',
    keepalive: true,
    headers: { ...baseHeaders(language), ...extra, ...headers },
    body: formBody(presentFields(browserTracking()), data),
  });
  const body = (await res.json().catch(() => null)) as { success?: number; msg?: string } | null;
  if (!res.ok || body?.success !== 1) throw new Error(body?.msg || `HTTP ${res.status}`);
}
