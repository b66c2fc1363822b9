import 'server-only';
import type { Context } from 'hono';
import { z } from 'zod';
import type { Attribution } from '../db/schema/tracking';
import { ApiError, ErrorCode } from './errors';

/**
 * zod-openapi `defaultHook`: a failed validation of params, query or body becomes a 422 whose `msg` is the first
 * issue's message. Schema messages are message keys (`Validation.emailInvalid`); an issue with zod's own wording
 * becomes `Validation.invalid` naming the field.
 */
export function validationHook(result: { success: boolean; error?: z.ZodError }): void {
  if (result.success || !result.error) return;
  throw zodToApiError(result.error);
}

/** The ApiError (422) for a zod error, keyed by the first issue. */
export function zodToApiError(error: z.ZodError): ApiError {
  const issue = error.issues[0];
  const field = issue?.path.join('.') || 'body';
  const key = issue?.message.startsWith('Validation.') ? issue.message : 'Validation.invalid';
  return new ApiError(422, ErrorCode.validation, key, { field }, { field });
}

/**
 * The validated request body whichever way it came: JSON or form-encoded (docs/rules.md#api), as validated by the
 * route's zod-openapi body schemas. A request with no body is validated as `{}` so required fields still fail.
 * Throws ApiError 422 when that fails.
 */
export function readBody<T extends z.ZodType>(c: Context, schema: T): z.infer<T> {
  const type = c.req.header('content-type')?.toLowerCase() ?? '';
  const req = c.req as unknown as { valid(target: 'json' | 'form'): unknown };
  if (type.startsWith('application/json')) return req.valid('json') as z.infer<T>;
  if (type.startsWith('application/x-www-form-urlencoded') || type.startsWith('multipart/form-data'))
    return req.valid('form') as z.infer<T>;
  const empty = schema.safeParse({});
  if (!empty.success) throw zodToApiError(empty.error);
  return empty.data;
}

/** The `request.body` of a route that takes `schema` as form fields or JSON. */
export function bodyOf<T extends z.ZodType>(schema: T) {
  return {
    required: false,
    content: {
      'application/x-www-form-urlencoded': { schema },
      'application/json': { schema },
    },
  } as const;
}

/**
 * The `request.body` of a route that takes `schema` as JSON only (the operator console): a body of any other declared
 * type, or one without a type, answers 415 before it is read (`@hono/zod-openapi`'s media-type check, mapped by
 * `onError`), so a cross-site HTML form, which cannot send `application/json` without a CORS preflight, never reaches
 * it. Read it with `readBody`; a request without a body is validated as `{}`.
 */
export function jsonBodyOf<T extends z.ZodType>(schema: T) {
  return { required: false, content: { 'application/json': { schema } } } as const;
}

/** The `track_id` header (docs/rules.md#entities): the browser's 64-hex event token, or undefined when absent or malformed. */
export function trackIdOf(c: Context): string | undefined {
  const value = c.req.header('track_id');
  return value && /^[0-9a-f]{64}$/.test(value) ? value : undefined;
}

/** An order's attribution from the tracking fields of its body and the `track_id` header. Empty values dropped. */
export function attributionOf(
  c: Context,
  body: { keyword?: string; apkChannel?: string; gclid?: string; wbraid?: string; gaCid?: string },
): Attribution {
  const entries = Object.entries({
    trackId: trackIdOf(c),
    keyword: body.keyword,
    channel: body.apkChannel,
    gclid: body.gclid,
    wbraid: body.wbraid,
    gaCid: body.gaCid,
  }).filter(([, v]) => !!v);
  return Object.fromEntries(entries) as Attribution;
}
