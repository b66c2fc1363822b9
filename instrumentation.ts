/**
 * Runs once when the Next server starts (Node runtime): leaves the security headers for scripts/start.mjs, which sets
 * them on every response (lib/security-headers.ts), opens the database (starting the embedded PostgreSQL when
 * DATABASE_URL is unset, applying migrations) and, unless JOBS_IN_PROCESS=false, starts the pg-boss workers.
 * A failure stops start-up with the reason (e.g. an invalid setting).
 */
export async function register() {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const { SECURITY_HEADERS_KEY, securityHeaders } = await import('./lib/security-headers');
  (globalThis as Record<symbol, unknown>)[SECURITY_HEADERS_KEY] = securityHeaders();
  const { startServer } = await import('./server/start');
  await startServer();
}
