import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { asc, eq, inArray, sql } from 'drizzle-orm';
import { centsToDollars } from '../../contracts/money.ts';
import { PRODUCT_MESSAGES, type ProductInput, productInputSchema } from '../../contracts/product-admin.ts';
import type { Database } from '../../db/client.ts';
import { brands, categories, products, productVariants, subcategories } from '../../db/schema.ts';
import { type Actor, recordAudit } from './audit.ts';
import { productValues } from './catalog-admin.ts';

/** The columns of the product CSV, in order: what export writes and import reads. */
export const PRODUCT_CSV_COLUMNS = [
  'sku',
  'name',
  'description',
  'brand',
  'category',
  'subcategory',
  'price',
  'discountPrice',
  'stockQuantity',
  'weight',
  'dimensions',
  'warrantyPeriod',
  'tagLine',
  'isFeatured',
  'isActive',
  'specifications',
] as const;

export interface ImportReport {
  applied: boolean;
  created: number;
  updated: number;
  rejected: { row: number; sku: string; reason: string }[];
}

const MAX_ROWS = 50_000;

/** What a spreadsheet reads as the start of a formula (OWASP "CSV Injection"), and the escape itself. */
const NEEDS_ESCAPE = /^[=+\-@\t\r']/;

/**
 * A cell a spreadsheet would run as a formula (starting with `=`, `+`, `-`, `@`, a tab or a
 * carriage return) gets a leading `'`, which shows it as text. So does a cell that already
 * starts with `'`, so that `unescapeCsvCell` can take exactly one leading `'` off every cell.
 */
export function escapeCsvCell(value: string): string {
  return NEEDS_ESCAPE.test(value) ? `'${value}` : value;
}

/** The import's half of `escapeCsvCell`: one leading `'` off, so an export imported again changes nothing. */
export function unescapeCsvCell(value: string): string {
  return value.startsWith("'") ? value.slice(1) : value;
}

/** Every product as CSV, one row per product, names for brand, category and subcategory. */
export async function exportProductsCsv(db: Database): Promise<string> {
  const rows = await db
    .select({
      sku: products.sku,
      name: products.name,
      description: products.description,
      brand: brands.name,
      category: categories.name,
      subcategory: subcategories.name,
      priceCents: products.priceCents,
      discountPriceCents: products.discountPriceCents,
      stockQuantity: products.stockQuantity,
      weightGrams: products.weightGrams,
      dimensions: products.dimensions,
      warrantyPeriod: products.warrantyPeriod,
      tagLine: products.tagLine,
      isFeatured: products.isFeatured,
      isActive: products.isActive,
      specifications: sql<string>`${products.specifications}::text`,
    })
    .from(products)
    .innerJoin(brands, eq(brands.id, products.brandId))
    .innerJoin(categories, eq(categories.id, products.categoryId))
    .innerJoin(subcategories, eq(subcategories.id, products.subcategoryId))
    .orderBy(asc(products.id));
  return stringify(
    rows.map((row) => {
      const cells: Record<(typeof PRODUCT_CSV_COLUMNS)[number], string> = {
        sku: row.sku,
        name: row.name,
        description: row.description,
        brand: row.brand,
        category: row.category,
        subcategory: row.subcategory,
        price: centsToDollars(row.priceCents).toFixed(2),
        discountPrice: row.discountPriceCents === null ? '' : centsToDollars(row.discountPriceCents).toFixed(2),
        stockQuantity: String(row.stockQuantity),
        weight: row.weightGrams === null ? '' : String(row.weightGrams / 1000),
        dimensions: row.dimensions ?? '',
        warrantyPeriod: row.warrantyPeriod ?? '',
        tagLine: row.tagLine ?? '',
        isFeatured: row.isFeatured ? 'true' : 'false',
        isActive: row.isActive ? 'true' : 'false',
        specifications: row.specifications,
      };
      return Object.fromEntries(Object.entries(cells).map(([column, value]) => [column, escapeCsvCell(value)]));
    }),
    { header: true, columns: [...PRODUCT_CSV_COLUMNS] },
  );
}

function parseBoolean(value: string | undefined, fallback: boolean): boolean | null {
  const text = (value ?? '').trim().toLowerCase();
  if (text === '') return fallback;
  if (['true', 'yes', '1'].includes(text)) return true;
  if (['false', 'no', '0'].includes(text)) return false;
  return null;
}

/**
 * Imports a product CSV (the export's columns; brand, category and subcategory by name),
 * upserting by SKU. All or nothing: if any row is rejected, nothing is written and the
 * report names each row and why; otherwise every row is written in one transaction.
 */
export async function importProductsCsv(db: Database, csv: string, actor: Actor): Promise<ImportReport> {
  let records: Record<string, string>[];
  try {
    records = parse(csv, {
      columns: (header: string[]) => header.map((name) => name.trim()),
      skip_empty_lines: true,
      trim: true,
      bom: true,
      max_record_size: 100_000,
      // The export's formula escape comes off every cell (escapeCsvCell).
      cast: (value, context) => (context.header ? value : unescapeCsvCell(value)),
    });
  } catch (error) {
    return {
      applied: false,
      created: 0,
      updated: 0,
      rejected: [{ row: 0, sku: '', reason: `The file is not valid CSV: ${(error as Error).message}` }],
    };
  }
  if (records.length === 0)
    return { applied: false, created: 0, updated: 0, rejected: [{ row: 0, sku: '', reason: 'The file has no rows' }] };
  if (records.length > MAX_ROWS) {
    return {
      applied: false,
      created: 0,
      updated: 0,
      rejected: [{ row: 0, sku: '', reason: `At most ${MAX_ROWS} rows per file` }],
    };
  }
  const missing = ['sku', 'name', 'brand', 'category', 'subcategory', 'price'].filter(
    (column) => !(column in (records[0] ?? {})),
  );
  if (missing.length) {
    return {
      applied: false,
      created: 0,
      updated: 0,
      rejected: [{ row: 0, sku: '', reason: `Missing column(s): ${missing.join(', ')}` }],
    };
  }

  const [brandRows, categoryRows, subcategoryRows] = await Promise.all([
    db.select({ id: brands.id, name: brands.name }).from(brands),
    db.select({ id: categories.id, name: categories.name }).from(categories),
    db
      .select({ id: subcategories.id, name: subcategories.name, categoryId: subcategories.categoryId })
      .from(subcategories),
  ]);
  const brandByName = new Map(brandRows.map((row) => [row.name.toLowerCase(), row.id]));
  const categoryByName = new Map(categoryRows.map((row) => [row.name.toLowerCase(), row.id]));
  const subcategoryByName = new Map(
    subcategoryRows.map((row) => [`${row.categoryId}:${row.name.toLowerCase()}`, row.id]),
  );

  const report: ImportReport = { applied: false, created: 0, updated: 0, rejected: [] };
  const valid: { row: number; input: ProductInput }[] = [];
  const seen = new Set<string>();
  for (const [index, record] of records.entries()) {
    const row = index + 2; // the header is row 1
    const sku = record.sku ?? '';
    const reject = (reason: string) => {
      report.rejected.push({ row, sku, reason });
    };
    const brandId = brandByName.get((record.brand ?? '').toLowerCase());
    const categoryId = categoryByName.get((record.category ?? '').toLowerCase());
    const subcategoryId = categoryId
      ? subcategoryByName.get(`${categoryId}:${(record.subcategory ?? '').toLowerCase()}`)
      : undefined;
    if (!brandId) {
      reject(`Unknown brand '${record.brand ?? ''}'`);
      continue;
    }
    if (!categoryId) {
      reject(`Unknown category '${record.category ?? ''}'`);
      continue;
    }
    if (!subcategoryId) {
      reject(`Unknown subcategory '${record.subcategory ?? ''}' in ${record.category}`);
      continue;
    }
    const isFeatured = parseBoolean(record.isFeatured, false);
    const isActive = parseBoolean(record.isActive, true);
    if (isFeatured === null || isActive === null) {
      reject('isFeatured and isActive must be true or false');
      continue;
    }
    if (seen.has(sku.toLowerCase())) {
      reject('The SKU appears twice in the file');
      continue;
    }
    seen.add(sku.toLowerCase());
    const parsed = productInputSchema.safeParse({
      name: record.name,
      sku,
      description: record.description || record.name,
      brandId,
      categoryId,
      subcategoryId,
      specifications: record.specifications || '{}',
      price: record.price === '' ? undefined : record.price,
      discountPrice: record.discountPrice,
      stockQuantity: record.stockQuantity === '' || record.stockQuantity === undefined ? 0 : record.stockQuantity,
      weight: record.weight,
      dimensions: record.dimensions,
      warrantyPeriod: record.warrantyPeriod,
      tagLine: record.tagLine,
      isFeatured,
      isActive,
    });
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      reject(`${issue?.path.join('.') || 'row'}: ${issue?.message ?? 'invalid'}`);
      continue;
    }
    valid.push({ row, input: parsed.data });
  }
  // A SKU names one thing to buy: a row may not take a SKU a variant already has.
  const validSkus = valid.map(({ input }) => input.sku);
  const variantSkus = new Set<string>();
  for (let start = 0; start < validSkus.length; start += 1000) {
    const rows = await db
      .select({ sku: productVariants.sku })
      .from(productVariants)
      .where(inArray(productVariants.sku, validSkus.slice(start, start + 1000)));
    for (const row of rows) variantSkus.add(row.sku);
  }
  for (const { row, input } of valid) {
    if (variantSkus.has(input.sku))
      report.rejected.push({ row, sku: input.sku, reason: PRODUCT_MESSAGES.duplicateVariantSku });
  }
  if (report.rejected.length > 0) {
    report.rejected.sort((a, b) => a.row - b.row);
    return report;
  }

  await db.transaction(async (tx) => {
    const existing = new Map<string, number>();
    const skus = valid.map(({ input }) => input.sku);
    for (let start = 0; start < skus.length; start += 1000) {
      const rows = await tx
        .select({ id: products.id, sku: products.sku })
        .from(products)
        .where(inArray(products.sku, skus.slice(start, start + 1000)));
      for (const row of rows) existing.set(row.sku, row.id);
    }

    const creates = valid.filter(({ input }) => !existing.has(input.sku)).map(({ input }) => productValues(input));
    for (let start = 0; start < creates.length; start += 500) {
      await tx.insert(products).values(creates.slice(start, start + 500));
    }
    // Updates go 500 rows to a statement (`update … from (values …)`), not one statement a row:
    // 10,000 single-row updates took ~45 s on the embedded database, most of it round trips and
    // the search index's statement trigger firing once per row.
    const updates = valid.flatMap(({ input }) => {
      const id = existing.get(input.sku);
      return id === undefined ? [] : [{ id, ...productValues(input) }];
    });
    for (let start = 0; start < updates.length; start += 500) {
      const rows = updates
        .slice(start, start + 500)
        .map(
          (row) =>
            sql`(${row.id}::int, ${row.name}::text, ${row.sku}::text, ${row.description}::text, ${row.brandId}::int, ${row.categoryId}::int, ${row.subcategoryId}::int, ${JSON.stringify(row.specifications)}::json, ${row.priceCents}::int, ${row.discountPriceCents}::int, ${row.stockQuantity}::int, ${row.weightGrams}::int, ${row.dimensions}::text, ${row.warrantyPeriod}::text, ${row.tagLine}::text, ${row.isFeatured}::boolean, ${row.isActive}::boolean)`,
        );
      await tx.execute(sql`
        update products as p set
          name = v.name, sku = v.sku, description = v.description, brand_id = v.brand_id,
          category_id = v.category_id, subcategory_id = v.subcategory_id, specifications = v.specifications,
          price_cents = v.price_cents, discount_price_cents = v.discount_price_cents,
          stock_quantity = v.stock_quantity, weight_grams = v.weight_grams, dimensions = v.dimensions,
          warranty_period = v.warranty_period, tag_line = v.tag_line, is_featured = v.is_featured,
          is_active = v.is_active, updated_at = now()
        from (values ${sql.join(rows, sql`, `)}) as v(id, name, sku, description, brand_id, category_id,
          subcategory_id, specifications, price_cents, discount_price_cents, stock_quantity, weight_grams,
          dimensions, warranty_period, tag_line, is_featured, is_active)
        where p.id = v.id`);
    }
    report.created = creates.length;
    report.updated = valid.length - creates.length;
    await recordAudit(tx, actor, {
      action: 'product.import',
      entity: 'product',
      details: { created: report.created, updated: report.updated },
    });
  });
  report.applied = true;
  return report;
}
