/**
 * Runs once when the Next server starts (Node runtime), however it is started (`npm start`, `next start`, the
 * standalone server): opens the database (starting the embedded PostgreSQL when DATABASE_URL is unset, applying
 * migrations) and, unless JOBS_IN_PROCESS=false, starts the pg-boss workers. A failure stops start-up with the reason
 * (e.g. an invalid setting). The security headers are Next's own (`headers()` in next.config.ts).
 */
export async function register() {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const { startServer } = await import('./server/start');
  await startServer();
}
