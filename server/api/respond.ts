import 'server-only';
import type { Context } from 'hono';
import { z } from '@hono/zod-openapi';

/**
 * The Cache-Control of the answers the owner's page receives every few seconds while sharing (a fix, a presence
 * signal): never stored, and `no-transform`, which also keeps the server's compression off them (the `compression`
 * package Next.js uses skips such answers). Gzip only makes a 40-byte answer longer, and at 200 fixes a second it cost
 * the app process a tenth of its CPU (bench/live-report.md).
 */
export const SMALL_ANSWER = 'no-store, no-transform';

/** Success envelope of docs/rules.md#api: `{ success: 1, msg, obj }`; `msg` is '' unless there is news to show. */
export function ok<T>(c: Context, obj: T, msg = '') {
  return c.json({ success: 1 as const, msg, obj }, 200);
}

/** Like `ok`, with status 201 for a created record. */
export function created<T>(c: Context, obj: T) {
  return c.json({ success: 1 as const, msg: '', obj }, 201);
}

/** Paged success envelope: `{ success: 1, msg: '', page: { list, total, pageNum, pageSize } }`. */
export function okPage<T, X extends object = object>(
  c: Context,
  page: { list: T[]; total: number; pageNum: number; pageSize: number } & X,
) {
  return c.json({ success: 1 as const, msg: '', page }, 200);
}

/** OpenAPI schema of a success envelope around `obj`. */
export function envelope<T extends z.ZodType>(obj: T) {
  return z.object({ success: z.literal(1), msg: z.string(), obj });
}

/** OpenAPI schema of the error envelope. */
export const errorEnvelope = z.object({ success: z.literal(0), code: z.number().int(), msg: z.string() });

/** One JSON response entry of `createRoute`'s `responses`: `schema` under `application/json`, with its description. */
export function jsonResponse<T extends z.ZodType>(schema: T, description: string) {
  return { content: { 'application/json': { schema } }, description };
}

/** The error statuses the API answers (docs/rules.md#api lists what each code means). */
type ErrorStatus = 400 | 401 | 402 | 403 | 404 | 409 | 410 | 413 | 415 | 422 | 429 | 500 | 502 | 503;

/**
 * The error answers of a route, each the error envelope: `fails({ 404: 'Unknown order' })` gives
 * `{ 404: jsonResponse(errorEnvelope, 'Unknown order') }`, typed per status so that the handler's typed answers and the
 * OpenAPI document both know them. Spread it into `responses` beside the success answer.
 */
export function fails<const F extends Partial<Record<ErrorStatus, string>>>(
  described: F,
): { [S in keyof F]: ReturnType<typeof jsonResponse<typeof errorEnvelope>> } {
  return Object.fromEntries(
    Object.entries(described).map(([status, description]) => [
      status,
      jsonResponse(errorEnvelope, String(description)),
    ]),
  ) as { [S in keyof F]: ReturnType<typeof jsonResponse<typeof errorEnvelope>> };
}

/** The answers of a route that validates input (server/api/validation.ts): for `fails({ ...BAD_INPUT, … })`. */
export const BAD_INPUT = { 400: 'Malformed input', 422: 'Validation failed; msg names the first problem' } as const;

/** The answer of a route behind `requireUser` to a caller without a session: for `fails({ ...SIGNED_OUT, … })`. */
export const SIGNED_OUT = { 401: 'Not signed in' } as const;
