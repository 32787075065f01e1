import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  listPageEntries,
  listProductEntries,
  listSitemapFiles,
  renderUrlSet,
  SITEMAP_URL_LIMIT,
  STATIC_SITEMAP_PATHS,
} from '../../server/domain/sitemap.ts';
import { createTestShop, type TestShop } from '../helpers/test-app.ts';

/** The sitemap domain functions on the demo catalogue, then on a catalogue of over 100,000 products. */
describe('sitemap', () => {
  let shop: TestShop;

  beforeAll(async () => {
    shop = await createTestShop('pglite');
  });
  afterAll(async () => {
    await shop?.close();
  });

  const count = async (query: ReturnType<typeof sql>) =>
    Number(((await shop.database.db.execute(query)) as unknown as { rows: { n: number }[] }).rows[0]!.n);

  it('lists the static pages and every category, subcategory and brand with a lastmod', async () => {
    const entries = await listPageEntries(shop.database.db);
    const [categories, subcategories, brands] = await Promise.all([
      count(sql`select count(*)::int as n from categories`),
      count(sql`select count(*)::int as n from subcategories`),
      count(sql`select count(*)::int as n from brands`),
    ]);
    expect(entries.length).toBe(STATIC_SITEMAP_PATHS.length + categories + subcategories + brands);
    expect(entries.filter((entry) => /^\/brand\/\d+$/.test(entry.path))).toHaveLength(brands);
    expect(entries.filter((entry) => /^\/category\/\d+\/subcategory\/\d+$/.test(entry.path))).toHaveLength(
      subcategories,
    );
    for (const entry of entries.filter((item) => item.path.startsWith('/brand/'))) {
      expect(entry.lastModified).toMatch(/^\d{4}-\d\d-\d\dT/);
    }
  });

  it('lists active products only, at their canonical URL', async () => {
    await shop.database.db.execute(sql`update products set is_active = false where id = 3`);
    const entries = (await listProductEntries(shop.database.db, 1)) ?? [];
    const active = await count(sql`select count(*)::int as n from products where is_active`);
    expect(entries).toHaveLength(active);
    expect(entries.map((entry) => entry.path)).not.toContain('/product/3');
    expect(entries[0]).toMatchObject({ path: '/product/1' });
    expect(await listProductEntries(shop.database.db, 2)).toBeNull();
    const files = await listSitemapFiles(shop.database.db);
    expect(files.map((file) => file.path)).toEqual(['/sitemap/pages.xml', '/sitemap/products-1.xml']);
  });

  it('splits 100,000+ products into files of at most 50,000 and builds each quickly', async () => {
    // Clone the first product under 105,000 new ids (ids run past 100,000). The search
    // index triggers are switched off for the bulk load: the sitemap does not read them.
    await shop.database.db.execute(sql`alter table products disable trigger user`);
    await shop.database.db.execute(sql`
      insert into products (sku, name, description, specifications, price_cents, stock_quantity, brand_id,
        category_id, subcategory_id, is_active)
      select 'BULK-' || g, 'Bulk product ' || g, '', '{}'::jsonb, 1000, 5, p.brand_id, p.category_id,
        p.subcategory_id, true
      from generate_series(1, 105000) as g, (select * from products where id = 1) as p`);
    await shop.database.db.execute(sql`alter table products enable trigger user`);
    const active = await count(sql`select count(*)::int as n from products where is_active`);
    expect(active).toBeGreaterThan(100_000);

    const started = performance.now();
    const files = await listSitemapFiles(shop.database.db);
    expect(files.map((file) => file.path)).toEqual([
      '/sitemap/pages.xml',
      '/sitemap/products-1.xml',
      '/sitemap/products-2.xml',
      '/sitemap/products-3.xml',
    ]);
    let total = 0;
    for (const chunk of [1, 2, 3]) {
      const entries = (await listProductEntries(shop.database.db, chunk))!;
      expect(entries.length).toBeLessThanOrEqual(SITEMAP_URL_LIMIT);
      const xml = renderUrlSet('https://shop.example', entries);
      expect(xml.match(/<url>/g)).toHaveLength(entries.length);
      total += entries.length;
    }
    expect(total).toBe(active);
    // The index and all three files in well under the time a crawler waits (PGlite, one query at a time).
    expect(performance.now() - started).toBeLessThan(15_000);
  }, 300_000);
});
