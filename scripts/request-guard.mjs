// Requests that Next's handler cannot take, answered by scripts/start.mjs before it hands the request to Next.
// Next 16 turns a path it cannot decode into a DecodeError and then fails to render its own 400 page (a plain-text
// 500), and it builds a WHATWG `Request` for the API and the pages, which refuses TRACE, TRACK and CONNECT (Fetch
// standard, "forbidden method"; another 500). Both are answered here instead, in the API's envelope for API paths
// (`{success:0,code,msg}`, docs/rules.md#api) and as a small HTML page for the others, with a localized message from
// messages/, and logged as a warning without the path, query or address (docs/deploy.md "Logs": no personal data).
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { acceptedLanguage } from './accept-language.mjs';

/**
 * The methods passed on to Next: the API's (app/api_f/v1/[[...route]]/route.ts exports GET, HEAD, POST, PUT, PATCH,
 * DELETE and OPTIONS) and the pages' (GET, HEAD). Any other method answers 405 with this list in `Allow`
 * (RFC 9110, section 15.5.6).
 */
export const ALLOWED_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];
const ALLOW = ALLOWED_METHODS.join(', ');

/** Envelope codes of server/api/errors.ts (ErrorCode.badRequest, ErrorCode.methodNotAllowed). */
const CODE = { 400: 40000, 405: 40500 };
/** Message keys of messages/*.json (namespace Api). */
const MESSAGE = { 400: 'badInput', 405: 'methodNotAllowed' };
/** Used when messages/ cannot be read (an image built without it): the English catalogue's text. */
const FALLBACK = {
  badInput: 'The request contains characters that are not allowed.',
  methodNotAllowed: 'This method is not allowed for this address.',
  back: 'BACK',
};

/** The locale prefixes of the pages (i18n/routing.ts) and the catalogue each one reads; `/ph/` is English. */
const PREFIX_LANG = { es: 'es', id: 'id', ph: 'en' };
/** A request id given by a proxy is kept when it is 1–64 letters, digits, `_`, `-` or `=`, as hono/request-id does for the API (server/api/middleware.ts). */
const REQUEST_ID = /^[\w=-]{1,64}$/;
/** pino's numeric levels; the refusals are logged at `warn` (40) unless LOG_LEVEL asks for less. */
const LEVELS = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60, silent: Infinity };

/** @type {Map<string, Record<string, any> | null>} */
const catalogues = new Map();

/** `Api.{key}` (or `NotFound.back`) in `lang`, from messages/{lang}.json as server/i18n.ts reads it; English else. */
function text(lang, key) {
  if (!catalogues.has(lang)) {
    try {
      catalogues.set(lang, JSON.parse(readFileSync(path.join(process.cwd(), 'messages', `${lang}.json`), 'utf8')));
    } catch {
      catalogues.set(lang, null);
    }
  }
  const catalogue = catalogues.get(lang);
  const found = key === 'back' ? catalogue?.NotFound?.back : catalogue?.Api?.[key];
  return typeof found === 'string' ? found : lang === 'en' ? FALLBACK[key] : text('en', key);
}

/**
 * The API's answer language from `Accept-Language`, as server/i18n.ts `pickLanguage` gives it (one rule:
 * scripts/accept-language.mjs): the first listed language (by q-value, then order) that is en, id or es; English
 * otherwise.
 */
function apiLanguage(header) {
  return acceptedLanguage(header, ['en', 'id', 'es'], 'en');
}

/** The path of a request-target (origin-form `/p?q`, or absolute-form `http://host/p?q`), without its query. */
function pathOf(target) {
  const start = target.startsWith('/') ? 0 : target.indexOf('/', target.indexOf('//') + 2);
  if (start < 0) return '/';
  const end = target.indexOf('?', start);
  return target.slice(start, end < 0 ? undefined : end);
}

/**
 * Whether every `/`-separated segment of `pathname` decodes as %-encoded UTF-8 (RFC 3986, section 2.1, RFC 3629), as Next
 * decodes route parameters: `%ZZ`, a truncated `%E0%A4%A` and a surrogate's encoding `%ED%A0%80` do not.
 */
export function isDecodablePath(pathname) {
  if (!pathname.includes('%')) return true;
  for (const segment of pathname.split('/')) {
    try {
      decodeURIComponent(segment);
    } catch {
      return false;
    }
  }
  return true;
}

/** One pino-shaped JSON line at `warn` on stdout (the app's own log format, server/observability/log.ts). */
function warn(fields) {
  if ((LEVELS[process.env.LOG_LEVEL ?? 'info'] ?? LEVELS.info) > LEVELS.warn) return;
  const line = { level: 40, time: new Date().toISOString(), pid: process.pid, role: process.env.APP_ROLE ?? 'web' };
  process.stdout.write(`${JSON.stringify({ ...line, ...fields, msg: 'request refused before the app' })}\n`);
}

/** The escaped text of an HTML page. */
const html = (s) => s.replace(/[&<>"]/g, (ch) => `&#${ch.charCodeAt(0)};`);

/**
 * Answers `status` (400 or 405) for a request Next cannot take. API paths (`/api_f/…`, and `/api_{hash}` which next
 * config rewrites to the API) get the envelope in the `Accept-Language` language; pages get a small HTML page in the
 * language of their locale prefix. 405 carries `Allow`. Never cached.
 */
function refuse(req, res, pathname, status, problem) {
  const given = req.headers['x-request-id'];
  const reqId = typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
  warn({ reqId, method: req.method, status, problem });
  res.statusCode = status;
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('X-Request-Id', reqId);
  if (status === 405) res.setHeader('Allow', ALLOW);
  if (pathname.startsWith('/api_')) {
    const msg = text(apiLanguage(req.headers['accept-language']), MESSAGE[status]);
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    res.end(JSON.stringify({ success: 0, code: CODE[status], msg }));
    return;
  }
  const prefix = /^\/(es|id|ph)(?:\/|$)/.exec(pathname)?.[1];
  const lang = prefix ? PREFIX_LANG[prefix] : 'en';
  const message = html(text(lang, MESSAGE[status]));
  res.setHeader('Content-Type', 'text/html; charset=utf-8');
  res.end(
    `<!doctype html><html lang="${prefix === 'ph' ? 'en-PH' : lang}"><head><meta charset="utf-8">` +
      '<meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex">' +
      `<title>${status} · ${message}</title></head><body><main><h1>${message}</h1>` +
      `<p><a href="/${prefix ? `${prefix}/` : ''}">${html(text(lang, 'back'))}</a></p></main></body></html>`,
  );
}

/**
 * Checks a request before Next's handler and answers it when Next could not: 405 for a method outside
 * {@link ALLOWED_METHODS} (TRACE, PROPFIND, …; Node itself answers 400 to a method it does not know, such as TRACK),
 * 400 for a path that is not decodable ({@link isDecodablePath}) or a request-target that is neither a path nor an
 * absolute URL (`OPTIONS *` answers 204 with `Allow`, RFC 9110, section 9.3.7). Returns true when it answered (the caller
 * then must not call Next).
 * @param {import('node:http').IncomingMessage} req
 * @param {import('node:http').ServerResponse} res
 */
export function guardRequest(req, res) {
  const target = req.url ?? '/';
  if (target === '*' && req.method === 'OPTIONS') {
    res.statusCode = 204;
    res.setHeader('Allow', ALLOW);
    res.end();
    return true;
  }
  const pathname = pathOf(target);
  if (!ALLOWED_METHODS.includes(req.method ?? '')) {
    refuse(req, res, pathname, 405, 'method');
    return true;
  }
  if (!(target.startsWith('/') || /^https?:\/\//i.test(target)) || !isDecodablePath(pathname)) {
    refuse(req, res, pathname, 400, 'path');
    return true;
  }
  return false;
}

/**
 * The server's `connect` listener: Node hands a CONNECT request (a proxy tunnel, RFC 9110, section 9.3.6) to it rather than
 * to the request handler, and without one drops the connection unanswered. This server is no proxy: 405.
 * @param {import('node:http').IncomingMessage} req
 * @param {import('node:stream').Duplex} socket
 */
export function refuseConnect(req, socket) {
  warn({ reqId: randomUUID(), method: req.method, status: 405, problem: 'method' });
  socket.end(`HTTP/1.1 405 Method Not Allowed\r\nAllow: ${ALLOW}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`);
}
