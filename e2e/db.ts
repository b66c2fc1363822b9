import pg from 'pg';

/** Port of the throwaway PostgreSQL of the e2e server (playwright.config passes it to e2e/serve.mjs). */
export const E2E_PG_PORT = Number(process.env.E2E_PG_PORT ?? 54391);

/**
 * Runs `sql` against the e2e server's throwaway database (embedded PostgreSQL on E2E_PG_PORT, database `app`) and
 * returns the rows: specs check what the server stored.
 */
export async function query<T = Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: `postgres://postgres:postgres@127.0.0.1:${E2E_PG_PORT}/app` });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows as T[];
  } finally {
    await client.end();
  }
}
