/**
 * The hottest reads run as named, prepared statements on PostgreSQL (db/prepared-statement.ts):
 * a product's full read (product, variants, related, reviews) and a session's check. Unnamed,
 * each was parsed and planned on every call: in the soak's statement log parse and bind were a
 * third of the database's time. The embedded database has no named statements to show: this
 * file runs on PostgreSQL only.
 */
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openDatabase } from '../../db/client.ts';
import { products, users } from '../../db/schema.ts';
import { seedCatalogue } from '../../db/seed/seed-catalogue.ts';
import { getFullProduct } from '../../server/domain/catalog.ts';
import { createSession, validateSession } from '../../server/domain/sessions.ts';
import { createScratchDatabase, isPostgresReachable } from '../helpers/postgres.ts';

const postgresAvailable = await isPostgresReachable();
if (!postgresAvailable) console.warn('prepared reads: PostgreSQL is not reachable; named statements exist only there.');

describe.skipIf(!postgresAvailable)('prepared reads on PostgreSQL', () => {
  let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
  let database: DatabaseHandle;

  /** What this connection has prepared through the protocol (the pool has one connection, so all of it). */
  const preparedTexts = async (): Promise<string[]> => {
    // postgres.js answers an array of rows (this file runs on PostgreSQL only).
    const rows = (await database.db.execute(
      sql`select statement from pg_prepared_statements where not from_sql order by prepare_time`,
    )) as unknown as { statement: string }[];
    return rows.map((row) => row.statement);
  };

  beforeAll(async () => {
    scratch = await createScratchDatabase();
    database = await openDatabase({ kind: 'postgres', url: scratch.url, maxConnections: 1 });
    await database.migrate();
    await seedCatalogue(database.db, { products: 60, mediaDir: null });
  });
  afterAll(async () => {
    await database?.close();
    await scratch?.drop();
  });

  it("prepares a product's full read once and runs it by name for every product after", async () => {
    const [first, second] = await database.db
      .select({ id: products.id })
      .from(products)
      .where(eq(products.isActive, true))
      .orderBy(products.id)
      .limit(2);
    const before = await preparedTexts();
    const one = await getFullProduct(database.db, first!.id);
    const afterOne = await preparedTexts();
    const other = await getFullProduct(database.db, second!.id);
    const afterTwo = await preparedTexts();

    expect(one.product.id).toBe(first!.id);
    expect(other.product.id).toBe(second!.id);
    const added = afterOne.filter((text) => !before.includes(text));
    const reads = (pattern: RegExp) => added.filter((text) => pattern.test(text)).length;
    expect(reads(/from "products" .*where "products"\."id" = \$1/s), 'the product').toBe(1);
    expect(reads(/from "product_variants" where "product_variants"\."product_id" = \$1/), 'its variants').toBe(1);
    expect(reads(/from "reviews" where "reviews"\."product_id" = \$1/), 'its reviews').toBe(1);
    expect(reads(/"products"\."subcategory_id" = \$\d+ and "products"\."brand_id" = \$\d+/), 'related').toBe(1);
    // The second product reuses them: nothing new, however many products are read.
    expect(
      afterTwo.filter((text) => !afterOne.includes(text)).filter((text) => !/pg_prepared_statements/.test(text)),
    ).toEqual([]);
  });

  it("prepares a session's check once", async () => {
    const [user] = await database.db
      .insert(users)
      .values({ email: 'prepared-reads@example.com', firstName: 'Pat', lastName: 'Reads' })
      .returning({ id: users.id });
    const first = await createSession(database.db, user!.id, undefined);
    const second = await createSession(database.db, user!.id, undefined);
    const before = await preparedTexts();
    expect((await validateSession(database.db, first.token))?.userId).toBe(user!.id);
    expect((await validateSession(database.db, second.token))?.userId).toBe(user!.id);
    const added = (await preparedTexts()).filter((text) => !before.includes(text));
    expect(added.filter((text) => /from "sessions" inner join "users"/.test(text))).toHaveLength(1);
  });
});
