import { randomBytes } from 'node:crypto';
import postgres from 'postgres';

/** Where the PostgreSQL runs of the tests go; each test file makes and drops its own database there. */
export const POSTGRES_ADMIN_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

let reachable: Promise<boolean> | undefined;

/** Whether a PostgreSQL server answers; when it does not, PostgreSQL-only tests are skipped with a line saying so. */
export function isPostgresReachable(): Promise<boolean> {
  reachable ??= (async () => {
    const sql = postgres(POSTGRES_ADMIN_URL, { max: 1, connect_timeout: 3, onnotice: () => {} });
    try {
      await sql`select 1`;
      return true;
    } catch (error) {
      console.warn(
        `PostgreSQL is not reachable at ${POSTGRES_ADMIN_URL} (${(error as Error).message}): the PostgreSQL runs are skipped; the PGlite runs still cover the same tests.`,
      );
      return false;
    } finally {
      await sql.end({ timeout: 1 });
    }
  })();
  return reachable;
}

/** Creates a fresh, uniquely named database and returns its URL and a function that drops it. */
export async function createScratchDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `harbour_test_${Date.now()}_${randomBytes(4).toString('hex')}`;
  const admin = postgres(POSTGRES_ADMIN_URL, { max: 1, onnotice: () => {} });
  await admin.unsafe(`CREATE DATABASE "${name}"`);
  await admin.end();
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const cleanup = postgres(POSTGRES_ADMIN_URL, { max: 1, onnotice: () => {} });
      await cleanup.unsafe(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await cleanup.end();
    },
  };
}
