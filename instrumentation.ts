/**
 * Runs once when the Next server starts (Node runtime): opens the database (starting the embedded PostgreSQL when
 * DATABASE_URL is unset, applying migrations) and, unless JOBS_IN_PROCESS=false, starts the pg-boss workers.
 * A failure stops start-up with the reason (e.g. an invalid setting).
 */
export async function register() {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const { startServer } = await import('./server/start');
  await startServer();
}
