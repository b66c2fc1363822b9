import 'server-only';
import type { MiddlewareHandler } from 'hono';
import { ApiError, ErrorCode } from './errors';

/** Whether `text` can be stored and echoed: no NUL byte (PostgreSQL refuses it) and no lone UTF-16 surrogate. */
export function isCleanText(text: string): boolean {
  return !text.includes('\0') && text.isWellFormed();
}

/** Every string in a parsed JSON value, keys included. */
function* stringsOf(value: unknown): Generator<string> {
  if (typeof value === 'string') yield value;
  else if (Array.isArray(value)) for (const item of value) yield* stringsOf(item);
  else if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      yield key;
      yield* stringsOf(item);
    }
  }
}

const bad = () => new ApiError(400, ErrorCode.badRequest, 'Api.badInput');

/**
 * Refuses (400 in the envelope, `Api.badInput`) a request whose path segment is not valid %-encoding, or whose path,
 * query or body text holds a NUL byte or a lone surrogate (issue 12 §9): such text cannot be stored in PostgreSQL
 * (text and jsonb refuse it) and would otherwise surface as a 500. Bodies are read through Hono's body cache, so the
 * validators and the webhooks' signature checks read the same bytes afterwards. A body that does not parse is left
 * to the route's validator (400/422). A URL without `%` is clean as it is: a serialized URL (WHATWG) holds no raw NUL
 * or surrogate, only their %-escapes, so most requests skip the parsing (issue 14 §3).
 */
export const inputHygiene: MiddlewareHandler = async (c, next) => {
  if (c.req.url.includes('%')) {
    const url = new URL(c.req.url);
    for (const segment of url.pathname.split('/')) {
      let decoded: string;
      try {
        decoded = decodeURIComponent(segment);
      } catch {
        throw bad();
      }
      if (!isCleanText(decoded)) throw bad();
    }
    for (const [key, value] of new URLSearchParams(url.search)) if (!isCleanText(key + value)) throw bad();
  }
  const type = c.req.header('content-type')?.toLowerCase() ?? '';
  if (!['GET', 'HEAD', 'OPTIONS'].includes(c.req.method)) {
    if (type.startsWith('application/json')) {
      const text = await c.req.text();
      if (text.includes('\0')) throw bad();
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = undefined;
      }
      for (const s of stringsOf(parsed)) if (!isCleanText(s)) throw bad();
    } else if (type.startsWith('application/x-www-form-urlencoded')) {
      for (const [key, value] of new URLSearchParams(await c.req.text())) if (!isCleanText(key + value)) throw bad();
    }
  }
  await next();
};
