import { and, desc, eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { type addresses, type paymentMethods, users } from '../../db/schema.ts';
import { NotFoundError } from './errors.ts';

/** The shopper's records that have one default among them: addresses and payment methods. */
type OwnedTable = typeof addresses | typeof paymentMethods;
type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];

/**
 * The rules addresses and payment methods share (spec §2/§4): a shopper sees and changes
 * only their own (another's id is 404, never 403); the first one is the default; making one
 * the default clears the others; deleting the default makes the newest remaining one default.
 * Each change locks the shopper's row, so two tabs cannot leave two defaults or none.
 */
export function createOwnedRecords<T extends OwnedTable>(db: Database, table: T, notFound: string) {
  type Row = T['$inferSelect'];
  const owned = (userId: number, id: number) => and(eq(table.userId, userId), eq(table.id, id));

  async function lockOwner(tx: Transaction, userId: number): Promise<void> {
    await tx.execute(sql`select 1 from ${users} where ${users.id} = ${userId} for update`);
  }

  async function clearDefault(tx: Transaction, userId: number): Promise<void> {
    await tx
      .update(table)
      .set({ isDefault: false } as never)
      .where(and(eq(table.userId, userId), eq(table.isDefault, true)));
  }

  async function setDefaultIn(tx: Transaction, userId: number, id: number): Promise<void> {
    await clearDefault(tx, userId);
    await tx
      .update(table)
      .set({ isDefault: true, updatedAt: new Date() } as never)
      .where(owned(userId, id));
  }

  async function readOwned(tx: Transaction | Database, userId: number, id: number): Promise<Row> {
    const [row] = await (tx as Database)
      .select()
      .from(table as OwnedTable)
      .where(owned(userId, id));
    if (!row) throw new NotFoundError(notFound);
    return row as Row;
  }

  return {
    /** Default first, then newest. */
    async list(userId: number): Promise<Row[]> {
      return (await db
        .select()
        .from(table as OwnedTable)
        .where(eq(table.userId, userId))
        .orderBy(desc(table.isDefault), desc(table.id))) as Row[];
    },

    async get(userId: number, id: number): Promise<Row> {
      return readOwned(db, userId, id);
    },

    async create(
      userId: number,
      values: Omit<T['$inferInsert'], 'userId' | 'isDefault'>,
      makeDefault = false,
    ): Promise<Row> {
      return db.transaction(async (tx) => {
        await lockOwner(tx, userId);
        const [existing] = await tx
          .select({ count: sql<number>`count(*)::int` })
          .from(table as OwnedTable)
          .where(eq(table.userId, userId));
        const isDefault = makeDefault || (existing?.count ?? 0) === 0;
        if (isDefault) await clearDefault(tx, userId);
        const [row] = await tx
          .insert(table)
          .values({ ...values, userId, isDefault } as never)
          .returning();
        return row as Row;
      });
    },

    async update(userId: number, id: number, values: Partial<T['$inferInsert']>, makeDefault = false): Promise<Row> {
      return db.transaction(async (tx) => {
        await lockOwner(tx, userId);
        await readOwned(tx, userId, id);
        await tx
          .update(table)
          .set({ ...values, updatedAt: new Date() } as never)
          .where(owned(userId, id));
        if (makeDefault) await setDefaultIn(tx, userId, id);
        return readOwned(tx, userId, id);
      });
    },

    async remove(userId: number, id: number): Promise<void> {
      await db.transaction(async (tx) => {
        await lockOwner(tx, userId);
        const row = (await readOwned(tx, userId, id)) as { isDefault: boolean };
        await tx.delete(table).where(owned(userId, id));
        if (!row.isDefault) return;
        const [next] = await tx
          .select({ id: table.id })
          .from(table as OwnedTable)
          .where(eq(table.userId, userId))
          .orderBy(desc(table.id))
          .limit(1);
        if (next) await setDefaultIn(tx, userId, next.id);
      });
    },

    async setDefault(userId: number, id: number): Promise<Row> {
      return db.transaction(async (tx) => {
        await lockOwner(tx, userId);
        await readOwned(tx, userId, id);
        await setDefaultIn(tx, userId, id);
        return readOwned(tx, userId, id);
      });
    },
  };
}
