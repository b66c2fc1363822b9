import 'server-only';
import type { Context } from 'hono';
import { z } from '@hono/zod-openapi';

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
