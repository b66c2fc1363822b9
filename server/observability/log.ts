import 'server-only';
import pino, { type Logger } from 'pino';
import { env } from '../env';

const key = Symbol.for('app.logger');
const store = globalThis as unknown as { [key]?: Logger };

/**
 * The process's structured logger (pino, one JSON object per line on stdout). Never give it personal
 * data: no e-mail, phone number, IP, path or query, body, code or token. Request lines carry the request id, the
 * route's pattern, the status and the duration in ms. Level from LOG_LEVEL.
 */
export function log(): Logger {
  store[key] ??= pino({
    level: env().LOG_LEVEL,
    base: { pid: process.pid, role: process.env.APP_ROLE ?? 'web' },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: ['email', 'phone', 'ip', '*.email', '*.phone', '*.ip'], remove: true },
  });
  return store[key];
}
