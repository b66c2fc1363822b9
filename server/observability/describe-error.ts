import 'server-only';

/**
 * A log line for an unexpected error without personal data: its name, the database's error code and message, and for
 * a failed query only the SQL text (Drizzle's message also lists the bound parameters, which may hold e-mails,
 * numbers or codes).
 */
export function describeError(error: unknown): string {
  if (!(error instanceof Error)) return typeof error;
  const cause = error.cause as { code?: string; message?: string } | undefined;
  const first = error.message.split('\nparams:')[0].slice(0, 300);
  return [error.name, first, cause?.code, cause?.message].filter(Boolean).join(' | ');
}
