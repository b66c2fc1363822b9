/**
 * Runs once when the Next server starts (Node runtime): leaves the security headers for scripts/start.mjs, which sets
 * them on every response (lib/security-headers.ts; with HSTS when APP_ORIGIN is https), opens the database (starting the embedded PostgreSQL when
 * DATABASE_URL is unset, applying migrations) and, unless JOBS_IN_PROCESS=false, starts the pg-boss workers.
 * A failure stops start-up with the reason (e.g. an invalid setting). A production server not started by
 * scripts/start.mjs (`next start` alone) exits at once: it would serve every page without the security headers.
 */
export async function register() {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const { SECURITY_HEADERS_KEY, START_SCRIPT_KEY, securityHeaders } = await import('./lib/security-headers');
  const shared = globalThis as Record<symbol, unknown>;
  if (process.env.NODE_ENV === 'production' && !shared[START_SCRIPT_KEY]) {
    console.error(
      'Start the production server with `npm start` (scripts/start.mjs): `next start` alone would serve every response ' +
        'without the security headers (CSP, HSTS, X-Frame-Options). Not starting.',
    );
    process.exit(1);
  }
  shared[SECURITY_HEADERS_KEY] = securityHeaders({ https: process.env.APP_ORIGIN?.startsWith('https://') });
  const { startServer } = await import('./server/start');
  await startServer();
}
