import 'server-only';
import type { Context, MiddlewareHandler } from 'hono';
import { bufferToFormData } from 'hono/utils/buffer';
import type { AppEnv } from './context';
import { ApiError, ErrorCode } from './errors';
import { log } from '../observability/log';

/**
 * Deepest nesting of arrays and objects accepted in a JSON body (the top-level value is depth 1; the API's own
 * bodies are at most 2 deep). Deeper bodies are refused before anything walks them: a recursive walk (zod's
 * validation, a logger's serializer) of `[[[…]]]` 5,000 deep overflows the call stack.
 */
export const MAX_JSON_DEPTH = 32;

/** Whether `text` can be stored and echoed: no NUL byte (PostgreSQL refuses it) and no lone UTF-16 surrogate. */
export function isCleanText(text: string): boolean {
  return !text.includes('\0') && text.isWellFormed();
}

/** Why a request was refused, as logged (never the refused text itself: it may be personal data). */
type Refusal = 'path' | 'query' | 'body' | 'depth';

/**
 * What is wrong with a parsed JSON value, walked without recursion: `'depth'` when arrays/objects nest deeper than
 * `maxDepth` (the top-level value is depth 1), `'body'` when a string or key is not clean text ({@link isCleanText}),
 * null when it is fine. Scalars other than strings are always fine.
 */
export function jsonProblem(value: unknown, maxDepth = MAX_JSON_DEPTH): 'depth' | 'body' | null {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!;
    if (typeof item === 'string') {
      if (!isCleanText(item)) return 'body';
    } else if (item !== null && typeof item === 'object') {
      if (depth > maxDepth) return 'depth';
      if (Array.isArray(item)) for (const child of item) stack.push([child, depth + 1]);
      else
        for (const [key, child] of Object.entries(item)) {
          if (!isCleanText(key)) return 'body';
          stack.push([child, depth + 1]);
        }
    }
  }
  return null;
}

/** The refusal of a path or query that cannot be decoded into clean text, or null. */
function urlProblem(href: string): Refusal | null {
  const url = new URL(href);
  for (const segment of url.pathname.split('/')) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      return 'path'; // a `%` not followed by two hex digits, or bytes that are not UTF-8 (e.g. `%ED%A0%80`, `%E0%A4%A`)
    }
    if (!isCleanText(decoded)) return 'path';
  }
  for (const [key, value] of new URLSearchParams(url.search)) if (!isCleanText(key + value)) return 'query';
  return null;
}

/**
 * The refusal of a request body, or null. Every content type is read, since a route may parse a body whatever its
 * declared type (Hono's `c.req.json()` does not look at it): form-encoded and multipart fields (names, values and
 * file names), and any other body as text (no NUL) that, when it parses as JSON, is walked by {@link jsonProblem}.
 * Bodies are read through Hono's body cache, so the validators and the webhooks' signature checks read the same bytes
 * afterwards; a multipart body parsed here is left in that cache for the form validator. A body that does not parse
 * is left to the route's validator (400/422).
 */
async function bodyProblem(c: Context): Promise<Refusal | null> {
  const contentType = c.req.header('content-type') ?? '';
  const type = contentType.toLowerCase();
  if (type.startsWith('multipart/form-data')) {
    let form: FormData;
    try {
      form = await bufferToFormData(await c.req.arrayBuffer(), contentType);
    } catch {
      return null;
    }
    // Hono keeps a promise here (utils/body.ts); its form validator awaits whichever it finds.
    c.req.bodyCache.formData = Promise.resolve(form) as unknown as FormData;
    for (const [key, value] of form) {
      const text = typeof value === 'string' ? value : value.name;
      if (!isCleanText(key) || !isCleanText(text)) return 'body';
    }
    return null;
  }
  const text = await c.req.text();
  if (type.startsWith('application/x-www-form-urlencoded')) {
    for (const [key, value] of new URLSearchParams(text)) if (!isCleanText(key + value)) return 'body';
    return null;
  }
  if (text.includes('\0')) return 'body';
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return null;
  }
  return jsonProblem(parsed);
}

/**
 * Refuses, in the envelope, a request whose text cannot be stored or walked, before any route reads it:
 * - 400 `Api.badInput`: a path segment that is not valid %-encoded UTF-8 (RFC 3986, section 2.1, RFC 3629), or a path,
 *   query or body holding a NUL byte or a lone surrogate. PostgreSQL's text and jsonb refuse both (SQLSTATE 22021,
 *   22P05), which would otherwise surface as a 500;
 * - 400 `Api.tooDeep`: a JSON body nested deeper than {@link MAX_JSON_DEPTH}.
 * Each refusal is logged as a warning with the request id, the method and the kind of problem, never the text
 * (docs/deploy.md "Logs": no personal data). A URL without `%` is clean as it is: a serialized URL (WHATWG) holds no raw
 * NUL or surrogate, only their %-escapes, so most requests skip the parsing. GET, HEAD and OPTIONS bodies are not
 * read.
 */
export const inputHygiene: MiddlewareHandler<AppEnv> = async (c, next) => {
  let problem = c.req.url.includes('%') ? urlProblem(c.req.url) : null;
  if (!problem && !['GET', 'HEAD', 'OPTIONS'].includes(c.req.method)) problem = await bodyProblem(c);
  if (problem) {
    log().warn({ reqId: c.get('requestId'), method: c.req.method, problem }, 'bad input refused');
    throw new ApiError(400, ErrorCode.badRequest, problem === 'depth' ? 'Api.tooDeep' : 'Api.badInput');
  }
  await next();
};
