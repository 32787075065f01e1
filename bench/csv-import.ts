/**
 * Product CSV import (issue 10: "10,000 rows import in under a minute"; `npm run bench` adds
 * "CSV import of 10,000 rows (seconds)"). A generated file of valid rows for the seeded brands,
 * categories and subcategories goes through `POST /api/admin/products/import` as an admin, the
 * way the back office sends it: once into a catalogue without those SKUs (every row created),
 * then the same file again (every row updated, the upsert path of a re-imported export).
 */
import { stringify } from 'csv-stringify/sync';
import { openDatabase } from '../db/client.ts';
import { seedCatalogue } from '../db/seed/seed-catalogue.ts';
import { buildApp } from '../server/app.ts';
import { loadConfig } from '../server/config.ts';
import { PRODUCT_CSV_COLUMNS } from '../server/domain/product-csv.ts';

/** Issue 10: a file of 10,000 rows imports in under a minute. */
export const CSV_IMPORT_BUDGETS = { rows: 10_000, seconds: 60 } as const;

export interface CsvImportRun {
  /** Wall time of the whole request: upload, parse, checks, the one transaction. */
  seconds: number;
  created: number;
  updated: number;
  status: number;
}

export interface CsvImportFigures {
  database: 'pglite' | 'postgres';
  rows: number;
  bytes: number;
  create: CsvImportRun;
  update: CsvImportRun;
  /** Products in the catalogue after both runs (seeded + imported). */
  productsAfter: number;
}

const ADMIN_EMAIL = 'csv.bench.admin@example.com';
const ADMIN_PASSWORD = 'Csv-Bench-Admin-Pass-42';

const WORDS = [
  'Brushless',
  'Compact',
  'Heavy-Duty',
  'Pro',
  'Cordless',
  'Trade',
  'Precision',
  'Site',
  'Magnetic',
  'Quick-Change',
];
const KINDS = ['Drill', 'Saw', 'Grinder', 'Sander', 'Wrench', 'Level', 'Clamp', 'Blade Set', 'Torch', 'Vacuum'];

/**
 * `rows` valid product rows, about 500 bytes each like the seeded catalogue's: a description of
 * a few sentences, six specifications, prices with cents, some on sale, some hidden.
 */
export function generateProductCsv(
  rows: number,
  places: { brand: string; category: string; subcategory: string }[],
  skuPrefix = 'BENCH',
): string {
  const records = Array.from({ length: rows }, (_, index) => {
    const place = places[index % places.length] ?? places[0];
    if (!place) throw new Error('No brands or subcategories to import into');
    const name = `${place.brand} ${WORDS[index % WORDS.length]} ${KINDS[(index * 7) % KINDS.length]} ${index + 1}`;
    const cents = 995 + ((index * 7919) % 150_000);
    return {
      sku: `${skuPrefix}-${String(index + 1).padStart(6, '0')}`,
      name,
      description: `The ${name} is built for trades who use their tools every day. A balanced body keeps long jobs comfortable. Backed by the ${place.brand} warranty and supported by our team at the store.`,
      brand: place.brand,
      category: place.category,
      subcategory: place.subcategory,
      price: (cents / 100).toFixed(2),
      discountPrice: index % 5 === 0 ? ((cents - 200) / 100).toFixed(2) : '',
      stockQuantity: String(index % 250),
      weight: ((100 + (index % 4000)) / 1000).toString(),
      dimensions: `${100 + (index % 300)} x ${50 + (index % 200)} x ${20 + (index % 100)} mm`,
      warrantyPeriod: `${1 + (index % 5)} years`,
      tagLine: index % 3 === 0 ? 'Trade favourite' : '',
      isFeatured: index % 50 === 0 ? 'true' : 'false',
      isActive: index % 40 === 0 ? 'false' : 'true',
      specifications: JSON.stringify({
        Model: `BN-${index + 1}`,
        Voltage: `${[12, 18, 36][index % 3]}V`,
        Weight: `${(100 + (index % 4000)) / 1000} kg`,
        Motor: index % 2 ? 'Brushless' : 'Brushed',
        'No-Load Speed': `${1_000 + (index % 20) * 100} rpm`,
        'Battery Included': index % 2 ? 'No (skin only)' : 'Yes',
      }),
    };
  });
  return stringify(records, { header: true, columns: [...PRODUCT_CSV_COLUMNS] });
}

async function multipart(csv: string): Promise<{ body: Buffer; contentType: string }> {
  const form = new FormData();
  form.append('file', new Blob([csv], { type: 'text/csv' }), 'products.csv');
  const response = new Response(form);
  return { body: Buffer.from(await response.arrayBuffer()), contentType: response.headers.get('content-type') ?? '' };
}

/** Imports a generated 10,000-row CSV twice (creates, then updates) into a fresh PGlite, or the given PostgreSQL database. */
export async function benchCsvImport(options: { rows?: number; databaseUrl?: string } = {}): Promise<CsvImportFigures> {
  const rows = options.rows ?? CSV_IMPORT_BUDGETS.rows;
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATA_DIR: '/tmp/harbour-bench-csv-unused',
    ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : {}),
  });
  const database = await openDatabase(
    config.database.kind === 'postgres' ? { ...config.database, maxConnections: 5 } : { kind: 'pglite' },
  );
  try {
    await database.migrate();
    await seedCatalogue(database.db, { products: 200, mediaDir: null });
    const app = await buildApp({ config, database, logger: false });
    try {
      await app.ready();
      await app.services.accounts.ensureAdmin(ADMIN_EMAIL, ADMIN_PASSWORD);
      const login = await app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
      });
      if (login.statusCode !== 200) throw new Error(`Admin sign-in failed: ${login.statusCode} ${login.body}`);
      const token = (login.json() as { token: string }).token;

      const choices = await app.services.catalogAdmin.formChoices();
      const categoryName = new Map(choices.categories.map((category) => [category.id, category.name]));
      const places = choices.subcategories.flatMap((subcategory, index) => {
        const brand = choices.brands[index % choices.brands.length];
        const category = categoryName.get(subcategory.categoryId);
        return brand && category ? [{ brand: brand.name, category, subcategory: subcategory.name }] : [];
      });
      const csv = generateProductCsv(rows, places);
      const { body, contentType } = await multipart(csv);

      const run = async (): Promise<CsvImportRun> => {
        const started = performance.now();
        const answer = await app.inject({
          method: 'POST',
          url: '/api/admin/products/import',
          headers: { authorization: `Bearer ${token}`, 'content-type': contentType },
          payload: body,
        });
        const seconds = Math.round((performance.now() - started) / 10) / 100;
        const report = answer.json() as { created?: number; updated?: number; rejected?: unknown[] };
        if (answer.statusCode !== 200) {
          console.log(`  the import answered ${answer.statusCode}: ${JSON.stringify(report.rejected?.slice(0, 3))}`);
        }
        return { seconds, created: report.created ?? 0, updated: report.updated ?? 0, status: answer.statusCode };
      };
      const create = await run();
      const update = await run();
      return {
        database: database.kind,
        rows,
        bytes: Buffer.byteLength(csv),
        create,
        update,
        productsAfter: await app.services.catalogAdmin.countProducts(),
      };
    } finally {
      await app.close();
    }
  } finally {
    await database.close();
  }
}
