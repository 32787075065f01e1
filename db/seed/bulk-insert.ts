import { getTableColumns, getTableName, type SQLChunk, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Database } from '../client.ts';

type Executor = Pick<Database, 'execute'>;

/**
 * Inserts rows as one JSON parameter expanded by jsonb_to_recordset.
 *
 * A multi-row VALUES list binds one parameter per cell; at seed volumes (hundreds of
 * thousands of rows) that binding dominated the run on PGlite, and sending one JSON document
 * per chunk measured about 8x faster. Rows are still typed by the table's insert type, and
 * column names and SQL types come from the Drizzle schema, so nothing here is hand-written SQL
 * about a particular table. Nothing is read back: execute() result shapes differ by driver.
 */
export async function bulkInsert<T extends PgTable>(
  db: Executor,
  table: T,
  rows: ReadonlyArray<T['$inferInsert']>,
): Promise<void> {
  if (rows.length === 0) return;
  const keys = new Set<string>();
  for (const row of rows) for (const key of Object.keys(row)) keys.add(key);
  const columns = Object.entries(getTableColumns(table)).filter(([key]) => keys.has(key));
  const names: SQLChunk[] = columns.map(([, column]) => sql.identifier(column.name));
  const fields: SQLChunk[] = columns.map(([key]) => sql.identifier(key));
  const definitions: SQLChunk[] = columns.map(
    ([key, column]) => sql`${sql.identifier(key)} ${sql.raw(column.getSQLType())}`,
  );
  await db.execute(sql`
    INSERT INTO ${sql.identifier(getTableName(table))} (${sql.join(names, sql`, `)})
    SELECT ${sql.join(fields, sql`, `)}
    FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS x(${sql.join(definitions, sql`, `)})`);
}
