import { createApp } from '@/server/api/app';

/** The API app, called in-process as a client would call it over HTTP (Hono's `app.request`). */
export const app = createApp();

/** Base URL the app is mounted on. */
export const API = 'http://localhost/api_f/v1';

/** Headers a browser page sends through lib/api (docs/rules.md#api). */
export const clientHeaders = { website_type: '7', 'accept-language': 'en' };

/** Form-encodes a flat object. */
export function form(values: Record<string, string | number | boolean>): URLSearchParams {
  return new URLSearchParams(Object.entries(values).map(([k, v]) => [k, String(v)]));
}
