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

/** Standard JSON response entries for `createRoute`. */
export function jsonResponse<T extends z.ZodType>(schema: T, description: string) {
  return { content: { 'application/json': { schema } }, description };
}

export const errorResponses = {
  400: jsonResponse(errorEnvelope, 'Malformed input'),
  422: jsonResponse(errorEnvelope, 'Validation failed; msg names the first problem'),
} as const;
