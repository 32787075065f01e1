import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '../../contracts/account.ts';
import type { FullProduct, Product, ProductPage } from '../../contracts/catalog.ts';
import { PRODUCT_MESSAGES } from '../../contracts/product-admin.ts';
import type { SearchResponse } from '../../contracts/search.ts';
import { auditLog, products, productVariants } from '../../db/schema.ts';
import { PRODUCT_CSV_COLUMNS } from '../../server/domain/product-csv.ts';
import { isPostgresReachable } from '../helpers/postgres.ts';
import { createTestShop, type DatabaseKind, type TestShop } from '../helpers/test-app.ts';

/*
 * Issue 10, "Create product" and the products half of "Admin area", through inject on PGlite
 * and PostgreSQL: every validation message of contracts/product-admin.ts (400 naming the
 * field, nothing written), taken SKUs (409 naming the field), variants, the typed order of
 * specifications, edit, show/hide (gone from listings, search and the sitemap), stock, the
 * audit log, and the CSV export and all-or-nothing import.
 */

interface ErrorBody {
  message: string;
  errors?: Record<string, string[]>;
}

interface ImportReport {
  applied: boolean;
  created: number;
  updated: number;
  rejected: { row: number; sku: string; reason: string }[];
  message?: string;
}

interface AdminProductPage {
  items: {
    id: number;
    name: string;
    sku: string;
    category: string;
    brand: string;
    price: number;
    discountPrice: number | null;
    stockQuantity: number;
    isActive: boolean;
  }[];
  page: number;
  totalCount: number;
  totalPages: number;
}

interface AuditEntry {
  id: number;
  actorUserId: number | null;
  actorEmail: string;
  action: string;
  entity: string;
  entityId: string | null;
  details: Record<string, unknown>;
  createdAt: string;
}

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
type CsvRow = Record<(typeof PRODUCT_CSV_COLUMNS)[number], string>;

const ADMIN_PASSWORD = 'Harbour-Admin-Products-42';
const CSV_HEADER = PRODUCT_CSV_COLUMNS.join(',');

/** A multipart body as a browser's FormData sends it. */
async function multipart(
  files: { name: string; filename: string; type: string; data: Uint8Array }[],
  fields: Record<string, string> = {},
): Promise<{ body: Buffer; contentType: string }> {
  const form = new FormData();
  for (const file of files) {
    form.append(file.name, new Blob([new Uint8Array(file.data)], { type: file.type }), file.filename);
  }
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  const response = new Response(form);
  return { body: Buffer.from(await response.arrayBuffer()), contentType: response.headers.get('content-type') ?? '' };
}

function csvOf(rows: Partial<CsvRow>[], columns: readonly string[] = PRODUCT_CSV_COLUMNS): string {
  return stringify(rows, { header: true, columns: [...columns] });
}

const postgresAvailable = await isPostgresReachable();
const kinds: { kind: DatabaseKind; skip: boolean }[] = [
  { kind: 'pglite', skip: false },
  { kind: 'postgres', skip: !postgresAvailable },
];

for (const { kind, skip } of kinds) {
  describe.skipIf(skip)(`admin products API on ${kind}`, () => {
    let shop: TestShop;
    let token: string;
    let admin: User;
    let sequence = 0;
    /** A category with at least two subcategories, one of them, a subcategory of another category, two brands. */
    let place: {
      categoryId: number;
      categoryName: string;
      subcategoryId: number;
      subcategoryName: string;
      otherSubcategoryId: number;
      foreignSubcategoryId: number;
      brandId: number;
      brandName: string;
      otherBrandId: number;
    };

    /** Successful writes by their audit action, counted as the tests make them. */
    const writes: Record<string, number> = {};

    function auditedAction(method: Method, url: string, body: unknown): string | null {
      const path = url.split('?')[0] ?? '';
      if (method === 'POST' && path === '/api/products') return 'product.create';
      if (method === 'PUT' && /^\/api\/products\/\d+$/.test(path)) return 'product.update';
      if (method === 'PUT' && /^\/api\/admin\/products\/\d+\/active$/.test(path)) {
        return (body as { isActive: boolean }).isActive ? 'product.activate' : 'product.deactivate';
      }
      if (method === 'PUT' && /^\/api\/admin\/products\/\d+\/stock$/.test(path)) return 'product.stock';
      if (method === 'POST' && path === '/api/admin/products/import') return 'product.import';
      return null;
    }

    function nextIp(): string {
      sequence += 1;
      return `10.20.${(sequence >> 8) & 255}.${sequence & 255}`;
    }

    function uniqueSku(tag = 'T'): string {
      sequence += 1;
      return `ADM-${tag}-${kind}-${sequence}`;
    }

    async function call<T = ErrorBody>(
      method: Method,
      url: string,
      options: { body?: unknown; headers?: Record<string, string>; raw?: Buffer | string; token?: string | null } = {},
    ): Promise<{ status: number; body: T; text: string; headers: Record<string, unknown> }> {
      const bearer = options.token === undefined ? token : options.token;
      const response = await shop.app.inject({
        method,
        url,
        remoteAddress: nextIp(),
        headers: { ...(bearer ? { authorization: `Bearer ${bearer}` } : {}), ...options.headers },
        ...(options.raw !== undefined
          ? { payload: options.raw }
          : options.body === undefined
            ? {}
            : { payload: options.body as Record<string, unknown> }),
      });
      const text = response.body;
      if (response.statusCode >= 200 && response.statusCode < 300) {
        const action = auditedAction(method, url, options.body);
        if (action) writes[action] = (writes[action] ?? 0) + 1;
      }
      let body: unknown = null;
      try {
        body = text ? JSON.parse(text) : null;
      } catch {
        body = text;
      }
      return { status: response.statusCode, body: body as T, text, headers: response.headers };
    }

    async function importCsv(csv: string | Buffer): Promise<{ status: number; body: ImportReport }> {
      const { body, contentType } = await multipart([
        { name: 'file', filename: 'products.csv', type: 'text/csv', data: Buffer.from(csv) },
      ]);
      const answer = await call<ImportReport>('POST', '/api/admin/products/import', {
        raw: body,
        headers: { 'content-type': contentType },
      });
      return { status: answer.status, body: answer.body };
    }

    /** What the catalogue holds: every product and variant row (for "nothing written"), and the audit count. */
    async function snapshot() {
      const { db } = shop.database;
      return {
        products: await db.select().from(products).orderBy(asc(products.id)),
        variants: await db.select().from(productVariants).orderBy(asc(productVariants.id)),
        audit: await db.$count(auditLog),
      };
    }

    function validBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
      return {
        name: 'Quorvex 18V Brushless Impact Driver',
        sku: uniqueSku(),
        description: 'A compact impact driver for the test shop.',
        tagLine: 'Drives all day',
        brandId: place.brandId,
        categoryId: place.categoryId,
        subcategoryId: place.subcategoryId,
        specifications: '{"Voltage": "18 V", "Torque": "205 Nm"}',
        price: 199.99,
        discountPrice: 149.5,
        stockQuantity: 7,
        weight: 1.25,
        dimensions: '20 x 10 x 5 cm',
        warrantyPeriod: '3 years',
        isFeatured: false,
        isActive: true,
        images: [],
        variants: [],
        ...overrides,
      };
    }

    async function create(overrides: Record<string, unknown> = {}): Promise<Product> {
      const answer = await call<Product>('POST', '/api/products', { body: validBody(overrides) });
      expect(answer.status, answer.text).toBe(201);
      return answer.body;
    }

    async function listingIds(subcategoryId: number): Promise<number[]> {
      const answer = await call<ProductPage>('GET', `/api/products?subcategoryId=${subcategoryId}&limit=1000`, {
        token: null,
      });
      expect(answer.status).toBe(200);
      return answer.body.items.map((item) => item.id);
    }

    async function searchIds(term: string): Promise<number[]> {
      const answer = await call<SearchResponse>('GET', `/api/search?term=${encodeURIComponent(term)}&pageSize=100`, {
        token: null,
      });
      expect(answer.status).toBe(200);
      return answer.body.results.map((result) => result.id);
    }

    async function sitemapPaths(): Promise<string[]> {
      return ((await shop.app.services.sitemap.listProducts(1)) ?? []).map((entry) => entry.path);
    }

    async function auditEntries(): Promise<AuditEntry[]> {
      const answer = await call<AuditEntry[]>('GET', '/api/admin/audit');
      expect(answer.status).toBe(200);
      return answer.body;
    }

    beforeAll(async () => {
      shop = await createTestShop(kind, { products: 40 });
      const email = `catalogue.admin.${kind}@example.com`;
      await shop.app.services.accounts.ensureAdmin(email, ADMIN_PASSWORD);
      const signedIn = await call<{ token: string; user: User }>('POST', '/api/auth/login', {
        token: null,
        body: { email, password: ADMIN_PASSWORD },
      });
      expect(signedIn.status, signedIn.text).toBe(200);
      token = signedIn.body.token;
      admin = signedIn.body.user;
      expect(admin.role).toBe('admin');

      const choices = await shop.app.services.catalogAdmin.formChoices();
      const category = choices.categories.find(
        (candidate) => choices.subcategories.filter((sub) => sub.categoryId === candidate.id).length >= 2,
      );
      if (!category) throw new Error('The seeded catalogue has no category with two subcategories');
      const [subcategory, otherSubcategory] = choices.subcategories.filter((sub) => sub.categoryId === category.id);
      const foreign = choices.subcategories.find((sub) => sub.categoryId !== category.id);
      const [brand, otherBrand] = choices.brands;
      if (!subcategory || !otherSubcategory || !foreign || !brand || !otherBrand) throw new Error('Too few choices');
      place = {
        categoryId: category.id,
        categoryName: category.name,
        subcategoryId: subcategory.id,
        subcategoryName: subcategory.name,
        otherSubcategoryId: otherSubcategory.id,
        foreignSubcategoryId: foreign.id,
        brandId: brand.id,
        brandName: brand.name,
        otherBrandId: otherBrand.id,
      };
    });
    afterAll(async () => {
      await shop?.close();
    });

    describe('POST /api/products', () => {
      it('creates a product: 201 with every field as the API reads it, and an audit entry', async () => {
        const before = await snapshot();
        const sku = uniqueSku('NEW');
        const answer = await call<Product>('POST', '/api/products', { body: validBody({ sku }) });
        expect(answer.status, answer.text).toBe(201);
        const created = answer.body;
        expect(created).toMatchObject({
          name: 'Quorvex 18V Brushless Impact Driver',
          sku,
          description: 'A compact impact driver for the test shop.',
          tagLine: 'Drives all day',
          brandId: place.brandId,
          categoryId: place.categoryId,
          categoryName: place.categoryName,
          subcategoryId: place.subcategoryId,
          subcategoryName: place.subcategoryName,
          specifications: { Voltage: '18 V', Torque: '205 Nm' },
          price: 199.99,
          discountPrice: 149.5,
          stockQuantity: 7,
          weightKg: 1.25,
          dimensions: '20 x 10 x 5 cm',
          warrantyPeriod: '3 years',
          isFeatured: false,
          isActive: true,
          images: [],
        });
        const [row] = await shop.database.db.select().from(products).where(eq(products.id, created.id));
        expect(row).toMatchObject({ priceCents: 19_999, discountPriceCents: 14_950, weightGrams: 1250 });
        const after = await snapshot();
        expect(after.products).toHaveLength(before.products.length + 1);
        expect(after.audit).toBe(before.audit + 1);

        const [entry] = await auditEntries();
        expect(entry).toEqual({
          id: expect.any(Number),
          actorUserId: admin.id,
          actorEmail: admin.email,
          action: 'product.create',
          entity: 'product',
          entityId: String(created.id),
          details: { sku },
          createdAt: expect.any(String),
        });
        expect(Math.abs(Date.parse(entry?.createdAt ?? '') - Date.now())).toBeLessThan(60_000);

        const read = await call<Product>('GET', `/api/products/${created.id}`, { token: null });
        expect(read.status).toBe(200);
        expect(read.body).toEqual(created);
      });

      it('takes the form as the /upload page sends it: numbers, blank optional fields, specifications text', async () => {
        const created = await create({
          discountPrice: undefined,
          weight: undefined,
          dimensions: '',
          warrantyPeriod: '',
          tagLine: '',
          specifications: '',
          price: '12',
          stockQuantity: '0',
          brandId: String(place.brandId),
        });
        expect(created).toMatchObject({
          discountPrice: null,
          weightKg: null,
          dimensions: null,
          warrantyPeriod: null,
          tagLine: null,
          specifications: {},
          price: 12,
          stockQuantity: 0,
          brandId: place.brandId,
        });
      });

      const long = (length: number) => 'x'.repeat(length);
      const manySpecs = JSON.stringify(Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`Name ${i}`, 'v'])));
      const variant = (overrides: Record<string, unknown> = {}) => ({
        name: 'Kit',
        sku: `VAR-${Math.random().toString(36).slice(2, 10)}`,
        price: 10,
        stockQuantity: 1,
        ...overrides,
      });
      /** [what, body changes, field, the message]: each one alone makes the body invalid. */
      const invalid: [string, Record<string, unknown>, string, string][] = [
        ['name missing', { name: undefined }, 'name', 'Product name is required'],
        ['name blank', { name: '   ' }, 'name', 'Product name is required'],
        ['name not text', { name: 42 }, 'name', 'Product name is required'],
        ['name too long', { name: long(201) }, 'name', 'Must be 200 characters or fewer'],
        ['name with NUL', { name: 'Drill\u0000' }, 'name', 'Contains a character that is not allowed'],
        ['sku missing', { sku: undefined }, 'sku', 'SKU is required'],
        ['sku blank', { sku: '' }, 'sku', 'SKU is required'],
        ['sku too long', { sku: long(65) }, 'sku', 'Must be 64 characters or fewer'],
        ['description missing', { description: undefined }, 'description', 'Description is required'],
        ['description blank', { description: ' \n ' }, 'description', 'Description is required'],
        ['brand missing', { brandId: undefined }, 'brandId', 'Brand is required'],
        ['brand blank', { brandId: '' }, 'brandId', 'Brand is required'],
        ['brand not whole', { brandId: 1.5 }, 'brandId', 'Brand is required'],
        ['category missing', { categoryId: undefined }, 'categoryId', 'Category is required'],
        ['category zero', { categoryId: 0 }, 'categoryId', 'Category is required'],
        ['subcategory missing', { subcategoryId: undefined }, 'subcategoryId', 'Subcategory is required'],
        ['subcategory text', { subcategoryId: 'drills' }, 'subcategoryId', 'Subcategory is required'],
        ['price missing', { price: undefined }, 'price', 'Price is required'],
        ['price null', { price: null }, 'price', 'Price is required'],
        ['price blank', { price: '' }, 'price', 'Price is required'],
        ['price not a number', { price: 'cheap' }, 'price', 'Must be a number'],
        ['price true', { price: true }, 'price', 'Must be a number'],
        ['price below 0', { price: -0.01, discountPrice: undefined }, 'price', 'Must be 0 or more'],
        [
          'price three decimals',
          { price: 10.005, discountPrice: undefined },
          'price',
          'Use at most two decimals (cents)',
        ],
        ['price too high', { price: 1_000_000.01 }, 'price', 'Must be at most 1,000,000'],
        [
          'discount equal to price',
          { discountPrice: 199.99 },
          'discountPrice',
          'The discount price must be below the price',
        ],
        ['discount above price', { discountPrice: 250 }, 'discountPrice', 'The discount price must be below the price'],
        ['discount below 0', { discountPrice: -1 }, 'discountPrice', 'Must be 0 or more'],
        ['discount three decimals', { discountPrice: 9.999 }, 'discountPrice', 'Use at most two decimals (cents)'],
        ['stock missing', { stockQuantity: undefined }, 'stockQuantity', 'Stock quantity is required'],
        ['stock null', { stockQuantity: null }, 'stockQuantity', 'Stock quantity is required'],
        ['stock negative', { stockQuantity: -1 }, 'stockQuantity', 'Stock quantity must be 0 or more'],
        ['stock fractional', { stockQuantity: 1.5 }, 'stockQuantity', 'Stock must be a whole number'],
        ['weight negative', { weight: -0.5 }, 'weight', 'Weight must be 0 or more'],
        ['weight not a number', { weight: 'heavy' }, 'weight', 'Weight must be a number'],
        ['dimensions not text', { dimensions: 5 }, 'dimensions', 'Must be text'],
        ['warranty too long', { warrantyPeriod: long(101) }, 'warrantyPeriod', 'Must be 100 characters or fewer'],
        ['tag line too long', { tagLine: long(201) }, 'tagLine', 'Must be 200 characters or fewer'],
        [
          'specifications not JSON',
          { specifications: '{"Voltage": 18 V' },
          'specifications',
          PRODUCT_MESSAGES.specifications,
        ],
        ['specifications a list', { specifications: '["18 V"]' }, 'specifications', PRODUCT_MESSAGES.specifications],
        ['specifications a number', { specifications: 18 }, 'specifications', PRODUCT_MESSAGES.specifications],
        [
          'specifications nested',
          { specifications: '{"Battery": {"Volts": 18}}' },
          'specifications',
          'Specifications: up to 100 names, each with a text or number value',
        ],
        [
          'specifications over 100 names',
          { specifications: manySpecs },
          'specifications',
          'Specifications: up to 100 names, each with a text or number value',
        ],
        [
          'images sent',
          { images: [{ imageUrl: '/x.png' }] },
          'images',
          'Upload pictures with POST /api/products/images',
        ],
        ['variant name missing', { variants: [variant({ name: '' })] }, 'variants.0.name', 'Variant name is required'],
        [
          'variant SKU missing',
          { variants: [variant({ sku: undefined })] },
          'variants.0.sku',
          'Variant SKU is required',
        ],
        [
          'variant stock missing',
          { variants: [variant({ stockQuantity: undefined })] },
          'variants.0.stockQuantity',
          'Variant stock is required',
        ],
        [
          'variant stock negative',
          { variants: [variant({ stockQuantity: -2 })] },
          'variants.0.stockQuantity',
          'Stock must be 0 or more',
        ],
        [
          'variant price three decimals',
          { variants: [variant({ price: 1.001 })] },
          'variants.0.price',
          'Use at most two decimals (cents)',
        ],
        [
          'variant SKU same as the product',
          { sku: 'SAME-SKU-1', variants: [variant({ sku: 'same-sku-1' })] },
          'variants.0.sku',
          'Each SKU must be different',
        ],
        [
          'two variants with one SKU',
          { variants: [variant({ sku: 'TWIN-1' }), variant({ sku: 'TWIN-1' })] },
          'variants.1.sku',
          'Each SKU must be different',
        ],
        [
          'over 50 variants',
          { variants: Array.from({ length: 51 }, (_, i) => variant({ sku: `MANY-${i}` })) },
          'variants',
          'At most 50 variants',
        ],
      ];

      it.each(invalid)('%s → 400 naming the field, nothing written', async (_what, changes, field, message) => {
        const before = await snapshot();
        const answer = await call('POST', '/api/products', { body: validBody(changes) });
        expect(answer.status, answer.text).toBe(400);
        expect(answer.body).toEqual({ message: `Invalid field: ${field}`, errors: { [field]: [message] } });
        expect(await snapshot()).toEqual(before);
      });

      it('names every missing required field of spec §5 at once', async () => {
        const before = await snapshot();
        const answer = await call('POST', '/api/products', { body: {} });
        expect(answer.status).toBe(400);
        expect(answer.body).toEqual({
          message: 'Invalid fields: name, sku, description, brandId, categoryId, subcategoryId, price, stockQuantity',
          errors: {
            name: ['Product name is required'],
            sku: ['SKU is required'],
            description: ['Description is required'],
            brandId: ['Brand is required'],
            categoryId: ['Category is required'],
            subcategoryId: ['Subcategory is required'],
            price: ['Price is required'],
            stockQuantity: ['Stock quantity is required'],
          },
        });
        expect(await snapshot()).toEqual(before);
      });

      it('refuses a subcategory of another category, and unknown brand, category or subcategory ids', async () => {
        const cases: [Record<string, unknown>, Record<string, string[]>][] = [
          [
            { subcategoryId: place.foreignSubcategoryId },
            { subcategoryId: [PRODUCT_MESSAGES.subcategoryNotInCategory] },
          ],
          [{ brandId: 999_999 }, { brandId: [PRODUCT_MESSAGES.unknownBrand] }],
          [{ categoryId: 999_999 }, { categoryId: [PRODUCT_MESSAGES.unknownCategory] }],
          [{ subcategoryId: 999_999 }, { subcategoryId: [PRODUCT_MESSAGES.unknownSubcategory] }],
        ];
        for (const [changes, errors] of cases) {
          const before = await snapshot();
          const answer = await call('POST', '/api/products', { body: validBody(changes) });
          expect(answer.status, answer.text).toBe(400);
          expect(answer.body).toEqual({ message: `Invalid field: ${Object.keys(errors).join(', ')}`, errors });
          expect(await snapshot()).toEqual(before);
        }
      });

      it('answers 409 naming sku for a taken SKU, and writes nothing', async () => {
        const first = await create({ sku: uniqueSku('TAKEN') });
        const before = await snapshot();
        const answer = await call('POST', '/api/products', { body: validBody({ sku: first.sku, name: 'Other' }) });
        expect(answer.status).toBe(409);
        expect(answer.body).toEqual({
          message: PRODUCT_MESSAGES.duplicateSku,
          errors: { sku: [PRODUCT_MESSAGES.duplicateSku] },
        });
        expect(await snapshot()).toEqual(before);
      });

      it('needs the admin role (401 signed out), checked before the body', async () => {
        const before = await snapshot();
        const answer = await call('POST', '/api/products', { body: validBody(), token: null });
        expect(answer.status).toBe(401);
        expect(answer.body).toEqual({ message: 'Please sign in to continue' });
        expect(await snapshot()).toEqual(before);
      });
    });

    describe('variants', () => {
      it('saves variants: GET /api/products/full/:id shows each with its name, SKU, price and stock', async () => {
        const skus = [uniqueSku('V'), uniqueSku('V')];
        const product = await create({
          variants: [
            { name: 'Skin only', sku: skus[0], stockQuantity: 3 },
            { name: 'Kit with 2 × 5 Ah', sku: skus[1], price: 349.5, stockQuantity: 2 },
          ],
        });
        const full = await call<FullProduct>('GET', `/api/products/full/${product.id}`, { token: null });
        expect(full.status).toBe(200);
        expect(full.body.variants).toEqual([
          { id: expect.any(Number), name: 'Skin only', sku: skus[0], price: null, stockQuantity: 3, attributes: {} },
          {
            id: expect.any(Number),
            name: 'Kit with 2 × 5 Ah',
            sku: skus[1],
            price: 349.5,
            stockQuantity: 2,
            attributes: {},
          },
        ]);
      });

      it('answers 409 for a variant SKU another product or variant holds, and a product SKU a variant holds', async () => {
        const variantSku = uniqueSku('HELD');
        const holder = await create({ variants: [{ name: 'Held', sku: variantSku, stockQuantity: 1 }] });
        const cases: [string, Record<string, unknown>, Record<string, string[]>][] = [
          [
            "another product's variant SKU as a variant",
            { variants: [{ name: 'Clash', sku: variantSku, stockQuantity: 1 }] },
            { variants: [PRODUCT_MESSAGES.duplicateVariantSku] },
          ],
          [
            "another product's SKU as a variant",
            { variants: [{ name: 'Clash', sku: holder.sku, stockQuantity: 1 }] },
            { variants: [PRODUCT_MESSAGES.duplicateVariantSku] },
          ],
          ["another product's variant SKU as the SKU", { sku: variantSku }, { sku: [PRODUCT_MESSAGES.duplicateSku] }],
        ];
        for (const [what, changes, errors] of cases) {
          const before = await snapshot();
          const answer = await call('POST', '/api/products', { body: validBody(changes) });
          expect(answer.status, `${what}: ${answer.text}`).toBe(409);
          expect(answer.body, what).toEqual({ message: Object.values(errors)[0]?.[0], errors });
          expect(await snapshot(), what).toEqual(before);
        }
        // The same through an edit of another product.
        const other = await create();
        const before = await snapshot();
        const edit = await call('PUT', `/api/products/${other.id}`, {
          body: validBody({ sku: other.sku, variants: [{ name: 'Clash', sku: variantSku, stockQuantity: 1 }] }),
        });
        expect(edit.status).toBe(409);
        expect(edit.body).toEqual({
          message: PRODUCT_MESSAGES.duplicateVariantSku,
          errors: { variants: [PRODUCT_MESSAGES.duplicateVariantSku] },
        });
        expect(await snapshot()).toEqual(before);
      });
    });

    describe('specifications', () => {
      it('keeps the names in the order they were typed, as text or as an object', async () => {
        const typed = '{"Zeta": "last letter", "Alpha": "first letter", "Mid": "12", "Beta": 3}';
        const fromText = await create({ specifications: typed });
        const fromObject = await create({ specifications: { Zeta: 'z', Alpha: 'a', Mid: 'm' } });
        const order = ['Zeta', 'Alpha', 'Mid', 'Beta'];

        const read = await call<Product>('GET', `/api/products/${fromText.id}`, { token: null });
        expect(Object.keys(read.body.specifications)).toEqual(order);
        expect(read.body.specifications).toEqual({
          Zeta: 'last letter',
          Alpha: 'first letter',
          Mid: '12',
          Beta: '3',
        });
        expect(read.text).toContain(
          '"specifications":{"Zeta":"last letter","Alpha":"first letter","Mid":"12","Beta":"3"}',
        );
        const full = await call<FullProduct>('GET', `/api/products/full/${fromText.id}`, { token: null });
        expect(Object.keys(full.body.product.specifications)).toEqual(order);
        const object = await call<Product>('GET', `/api/products/${fromObject.id}`, { token: null });
        expect(Object.keys(object.body.specifications)).toEqual(['Zeta', 'Alpha', 'Mid']);
        const edit = await shop.app.services.catalogAdmin.getProductForEdit(fromText.id);
        expect(JSON.parse(edit.specifications)).toEqual(read.body.specifications);
        expect(Object.keys(JSON.parse(edit.specifications))).toEqual(order);
      });
    });

    describe('PUT /api/products/:id', () => {
      it('saves every field and the variant list: kept variants change, left-out ones go, new ones come', async () => {
        const [keepSku, dropSku, addSku] = [uniqueSku('K'), uniqueSku('D'), uniqueSku('A')];
        const product = await create({
          variants: [
            { name: 'Keep', sku: keepSku, stockQuantity: 1 },
            { name: 'Drop', sku: dropSku, stockQuantity: 1 },
          ],
        });
        const before = await call<FullProduct>('GET', `/api/products/full/${product.id}`, { token: null });
        const [keep, drop] = before.body.variants;
        const newSku = uniqueSku('RENAMED');
        const answer = await call<Product>('PUT', `/api/products/${product.id}`, {
          body: validBody({
            sku: newSku,
            name: 'Quorvex 18V Impact Driver (2nd gen)',
            brandId: place.otherBrandId,
            subcategoryId: place.otherSubcategoryId,
            price: 179,
            discountPrice: undefined,
            stockQuantity: 11,
            specifications: '{"Torque": "210 Nm"}',
            isFeatured: true,
            variants: [
              { id: keep?.id, name: 'Keep (renamed)', sku: keepSku, price: 20.5, stockQuantity: 9 },
              { name: 'Added', sku: addSku, stockQuantity: 4 },
            ],
          }),
        });
        expect(answer.status, answer.text).toBe(200);
        expect(answer.body).toMatchObject({
          id: product.id,
          sku: newSku,
          name: 'Quorvex 18V Impact Driver (2nd gen)',
          brandId: place.otherBrandId,
          subcategoryId: place.otherSubcategoryId,
          price: 179,
          discountPrice: null,
          stockQuantity: 11,
          specifications: { Torque: '210 Nm' },
          isFeatured: true,
        });
        const after = await call<FullProduct>('GET', `/api/products/full/${product.id}`, { token: null });
        expect(after.body.product).toEqual(answer.body);
        expect(after.body.variants).toEqual([
          { id: keep?.id, name: 'Keep (renamed)', sku: keepSku, price: 20.5, stockQuantity: 9, attributes: {} },
          { id: expect.any(Number), name: 'Added', sku: addSku, price: null, stockQuantity: 4, attributes: {} },
        ]);
        const dropped = await shop.database.db
          .select()
          .from(productVariants)
          .where(eq(productVariants.id, drop?.id ?? 0));
        expect(dropped).toEqual([]);
        const [entry] = await auditEntries();
        expect(entry).toMatchObject({
          action: 'product.update',
          entity: 'product',
          entityId: String(product.id),
          actorEmail: admin.email,
          actorUserId: admin.id,
          details: { sku: newSku },
        });
      });

      it('an empty variant list removes every variant', async () => {
        const product = await create({ variants: [{ name: 'Only', sku: uniqueSku('O'), stockQuantity: 1 }] });
        const answer = await call<Product>('PUT', `/api/products/${product.id}`, {
          body: validBody({ sku: product.sku, variants: [] }),
        });
        expect(answer.status).toBe(200);
        const full = await call<FullProduct>('GET', `/api/products/full/${product.id}`, { token: null });
        expect(full.body.variants).toEqual([]);
      });

      it('404 for an unknown product, 400 with nothing changed for a bad body, 409 for a taken SKU', async () => {
        const [one, two] = [await create(), await create()];
        const before = await snapshot();
        const missing = await call('PUT', '/api/products/999999', { body: validBody() });
        expect(missing.status).toBe(404);
        expect(missing.body).toEqual({ message: 'Product not found' });
        const bad = await call('PUT', `/api/products/${one.id}`, {
          body: validBody({ sku: one.sku, price: -5, discountPrice: undefined }),
        });
        expect(bad.status).toBe(400);
        expect(bad.body).toEqual({ message: 'Invalid field: price', errors: { price: ['Must be 0 or more'] } });
        const taken = await call('PUT', `/api/products/${one.id}`, { body: validBody({ sku: two.sku }) });
        expect(taken.status).toBe(409);
        expect(taken.body).toEqual({
          message: PRODUCT_MESSAGES.duplicateSku,
          errors: { sku: [PRODUCT_MESSAGES.duplicateSku] },
        });
        const badId = await call('PUT', '/api/products/abc', { body: validBody() });
        expect(badId.status).toBe(400);
        expect(await snapshot()).toEqual(before);
      });
    });

    describe('show and hide', () => {
      it('a hidden product leaves listings, search and the sitemap but still answers by id; showing brings it back', async () => {
        const product = await create({ name: 'Zephyrbolt Cordless Rivet Gun', stockQuantity: 5 });
        const path = `/product/${product.id}`;
        // Visible first, so the checks below can fail.
        expect(await listingIds(place.subcategoryId)).toContain(product.id);
        expect(await searchIds('Zephyrbolt')).toEqual([product.id]);
        expect(await sitemapPaths()).toContain(path);

        const hidden = await call('PUT', `/api/admin/products/${product.id}/active`, { body: { isActive: false } });
        expect(hidden.status, hidden.text).toBe(204);
        expect(hidden.text).toBe('');
        expect(await listingIds(place.subcategoryId)).not.toContain(product.id);
        expect(await searchIds('Zephyrbolt')).toEqual([]);
        expect(await sitemapPaths()).not.toContain(path);
        const byId = await call<Product>('GET', `/api/products/${product.id}`, { token: null });
        expect(byId.status).toBe(200);
        expect(byId.body).toMatchObject({ id: product.id, isActive: false });
        const list = await call<AdminProductPage>('GET', `/api/admin/products?q=${encodeURIComponent(product.sku)}`);
        expect(list.body.items).toEqual([
          {
            id: product.id,
            name: 'Zephyrbolt Cordless Rivet Gun',
            sku: product.sku,
            category: place.categoryName,
            brand: place.brandName,
            price: 199.99,
            discountPrice: 149.5,
            stockQuantity: 5,
            isActive: false,
          },
        ]);
        expect((await auditEntries())[0]).toMatchObject({
          action: 'product.deactivate',
          entityId: String(product.id),
          actorEmail: admin.email,
        });

        const shown = await call('PUT', `/api/admin/products/${product.id}/active`, { body: { isActive: true } });
        expect(shown.status).toBe(204);
        expect(await listingIds(place.subcategoryId)).toContain(product.id);
        expect(await searchIds('Zephyrbolt')).toEqual([product.id]);
        expect(await sitemapPaths()).toContain(path);
        expect((await auditEntries())[0]).toMatchObject({ action: 'product.activate', entityId: String(product.id) });
      });

      it('404 for an unknown product; 400 when isActive is not a boolean', async () => {
        const before = await snapshot();
        const missing = await call('PUT', '/api/admin/products/999999/active', { body: { isActive: false } });
        expect(missing.status).toBe(404);
        expect(missing.body).toEqual({ message: 'Product not found' });
        const first = before.products[0];
        const bad = await call('PUT', `/api/admin/products/${first?.id}/active`, { body: { isActive: 'no' } });
        expect(bad.status).toBe(400);
        expect(bad.body).toEqual({
          message: 'Invalid field: isActive',
          errors: { isActive: ['isActive must be true or false'] },
        });
        expect(await snapshot()).toEqual(before);
      });
    });

    describe('PUT /api/admin/products/:id/stock', () => {
      it('sets the stock, shows at once, and records from and to', async () => {
        const product = await create({ stockQuantity: 7 });
        // Warm the product's cached read first.
        expect((await call<Product>('GET', `/api/products/${product.id}`, { token: null })).body.stockQuantity).toBe(7);
        const answer = await call('PUT', `/api/admin/products/${product.id}/stock`, { body: { stockQuantity: 42 } });
        expect(answer.status).toBe(204);
        expect((await call<Product>('GET', `/api/products/${product.id}`, { token: null })).body.stockQuantity).toBe(
          42,
        );
        expect((await auditEntries())[0]).toMatchObject({
          action: 'product.stock',
          entity: 'product',
          entityId: String(product.id),
          actorEmail: admin.email,
          actorUserId: admin.id,
          details: { from: 7, to: 42 },
        });
      });

      it('refuses a negative, fractional or text count and an unknown product, changing nothing', async () => {
        const product = await create({ stockQuantity: 3 });
        const before = await snapshot();
        const cases: [unknown, string][] = [
          [-1, 'Stock must be 0 or more'],
          [1.5, 'stockQuantity must be a whole number'],
          ['5', 'stockQuantity must be a whole number'],
        ];
        for (const [value, message] of cases) {
          const answer = await call('PUT', `/api/admin/products/${product.id}/stock`, {
            body: { stockQuantity: value },
          });
          expect(answer.status, String(value)).toBe(400);
          expect(answer.body, String(value)).toEqual({
            message: 'Invalid field: stockQuantity',
            errors: { stockQuantity: [message] },
          });
        }
        const missing = await call('PUT', '/api/admin/products/999999/stock', { body: { stockQuantity: 1 } });
        expect(missing.status).toBe(404);
        expect(missing.body).toEqual({ message: 'Product not found' });
        expect(await snapshot()).toEqual(before);
      });
    });

    describe('GET /api/admin/products', () => {
      it('pages every product 25 at a time and searches name or SKU, hidden ones included', async () => {
        const total = await shop.database.db.$count(products);
        const first = await call<AdminProductPage>('GET', '/api/admin/products');
        expect(first.status).toBe(200);
        expect(first.body).toMatchObject({ page: 1, totalCount: total, totalPages: Math.ceil(total / 25) });
        expect(first.body.items).toHaveLength(25);
        const last = await call<AdminProductPage>('GET', `/api/admin/products?page=${Math.ceil(total / 25)}`);
        expect(last.body.items).toHaveLength(total - 25 * (Math.ceil(total / 25) - 1));
        const ids = new Set([...first.body.items, ...last.body.items].map((item) => item.id));
        expect(ids.size).toBe(first.body.items.length + last.body.items.length);

        const named = await create({ name: 'Yarrowmint Detail Sander' });
        const byName = await call<AdminProductPage>('GET', '/api/admin/products?q=yarrowMINT');
        expect(byName.body.items.map((item) => item.id)).toEqual([named.id]);
        const bySku = await call<AdminProductPage>('GET', `/api/admin/products?q=${named.sku.toLowerCase()}`);
        expect(bySku.body.items.map((item) => item.id)).toEqual([named.id]);
        const wildcard = await call<AdminProductPage>('GET', '/api/admin/products?q=%25');
        expect(wildcard.body.totalCount).toBe(0);
        const bad = await call('GET', '/api/admin/products?page=0');
        expect(bad.status).toBe(400);
      });
    });

    describe('CSV export and import', () => {
      async function exportCsv(): Promise<string> {
        const answer = await call<string>('GET', '/api/admin/products/export.csv');
        expect(answer.status).toBe(200);
        expect(answer.headers['content-type']).toBe('text/csv; charset=utf-8');
        expect(answer.headers['content-disposition']).toMatch(/^attachment; filename="products-\d{4}-\d\d-\d\d\.csv"$/);
        return answer.text;
      }

      function rowsOf(csv: string): CsvRow[] {
        return parse(csv, { columns: true }) as CsvRow[];
      }

      /** Rows with their specifications re-serialised (names stay in their order). */
      function normalised(rows: CsvRow[]): CsvRow[] {
        return rows.map((row) => ({ ...row, specifications: JSON.stringify(JSON.parse(row.specifications)) }));
      }

      it('exports every product under the header PRODUCT_CSV_COLUMNS, with names for brand and category', async () => {
        const product = await create({ specifications: '{"Zeta": "1", "Alpha": "2"}' });
        const csv = await exportCsv();
        expect(csv.split('\n')[0]).toBe(CSV_HEADER);
        const rows = rowsOf(csv);
        expect(rows).toHaveLength(await shop.database.db.$count(products));
        expect(rows.find((row) => row.sku === product.sku)).toEqual({
          sku: product.sku,
          name: product.name,
          description: product.description,
          brand: place.brandName,
          category: place.categoryName,
          subcategory: place.subcategoryName,
          price: '199.99',
          discountPrice: '149.50',
          stockQuantity: '7',
          weight: '1.25',
          dimensions: '20 x 10 x 5 cm',
          warrantyPeriod: '3 years',
          tagLine: 'Drives all day',
          isFeatured: 'false',
          isActive: 'true',
          specifications: '{"Zeta":"1","Alpha":"2"}',
        });
      });

      it('round trip: importing the unchanged export updates every row, creates none, and exports the same file', async () => {
        const csv = await exportCsv();
        const count = await shop.database.db.$count(products);
        const auditBefore = await shop.database.db.$count(auditLog);
        const answer = await importCsv(csv);
        expect(answer.status, JSON.stringify(answer.body).slice(0, 500)).toBe(200);
        expect(answer.body).toEqual({ applied: true, created: 0, updated: count, rejected: [] });
        expect(await shop.database.db.$count(products)).toBe(count);
        // The same file again; only the spacing inside the specifications JSON may differ.
        const again = await exportCsv();
        expect(again.split('\n')[0]).toBe(CSV_HEADER);
        expect(normalised(rowsOf(again))).toEqual(normalised(rowsOf(csv)));
        expect(await shop.database.db.$count(auditLog)).toBe(auditBefore + 1);
        expect((await auditEntries())[0]).toMatchObject({
          action: 'product.import',
          entity: 'product',
          entityId: null,
          actorEmail: admin.email,
          actorUserId: admin.id,
          details: { created: 0, updated: count },
        });
      });

      it('a good file with new SKUs creates them (all columns read), and they show in the listing', async () => {
        const [skuA, skuB] = [uniqueSku('CSV'), uniqueSku('CSV')];
        // Warm the listing: the import must clear it.
        const warm = await listingIds(place.subcategoryId);
        const csv = csvOf([
          {
            sku: skuA,
            name: 'Imported Orbital Sander',
            description: 'From the supplier sheet',
            brand: place.brandName.toUpperCase(),
            category: place.categoryName,
            subcategory: place.subcategoryName.toLowerCase(),
            price: '89.95',
            discountPrice: '79',
            stockQuantity: '12',
            weight: '2.5',
            dimensions: '30 x 20 x 15 cm',
            warrantyPeriod: '1 year',
            tagLine: 'Smooth',
            isFeatured: 'yes',
            isActive: 'true',
            specifications: '{"Pad": "125 mm", "Speed": "12000 opm"}',
          },
          {
            sku: skuB,
            name: 'Imported Hidden Clamp',
            description: '',
            brand: place.brandName,
            category: place.categoryName,
            subcategory: place.subcategoryName,
            price: '5',
            discountPrice: '',
            stockQuantity: '',
            weight: '',
            dimensions: '',
            warrantyPeriod: '',
            tagLine: '',
            isFeatured: '',
            isActive: 'false',
            specifications: '',
          },
        ]);
        const count = await shop.database.db.$count(products);
        const answer = await importCsv(csv);
        expect(answer.status).toBe(200);
        expect(answer.body).toEqual({ applied: true, created: 2, updated: 0, rejected: [] });
        expect(await shop.database.db.$count(products)).toBe(count + 2);

        const [a] = await shop.database.db.select().from(products).where(eq(products.sku, skuA));
        expect(a).toMatchObject({
          name: 'Imported Orbital Sander',
          description: 'From the supplier sheet',
          brandId: place.brandId,
          categoryId: place.categoryId,
          subcategoryId: place.subcategoryId,
          priceCents: 8995,
          discountPriceCents: 7900,
          stockQuantity: 12,
          weightGrams: 2500,
          dimensions: '30 x 20 x 15 cm',
          warrantyPeriod: '1 year',
          tagLine: 'Smooth',
          isFeatured: true,
          isActive: true,
        });
        expect(Object.keys(a?.specifications ?? {})).toEqual(['Pad', 'Speed']);
        const [b] = await shop.database.db.select().from(products).where(eq(products.sku, skuB));
        expect(b).toMatchObject({
          description: 'Imported Hidden Clamp',
          priceCents: 500,
          discountPriceCents: null,
          stockQuantity: 0,
          weightGrams: null,
          tagLine: null,
          isFeatured: false,
          isActive: false,
          specifications: {},
        });
        const listed = await listingIds(place.subcategoryId);
        expect(listed).toContain(a?.id);
        expect(listed).not.toContain(b?.id);
        expect(listed).toHaveLength(warm.length + 1);
      });

      it('a bad file answers 400 with each row and its reason, and writes nothing', async () => {
        const good = (sku: string, changes: Partial<CsvRow> = {}): Partial<CsvRow> => ({
          sku,
          name: `Row ${sku}`,
          description: 'd',
          brand: place.brandName,
          category: place.categoryName,
          subcategory: place.subcategoryName,
          price: '10.00',
          stockQuantity: '1',
          isActive: 'true',
          ...changes,
        });
        const [s0, s1, s2, s3, s4, s5, s6, s7, s8] = Array.from({ length: 9 }, () => uniqueSku('BAD')) as [
          string,
          string,
          string,
          string,
          string,
          string,
          string,
          string,
          string,
        ];
        const csv = csvOf([
          good(s0, { brand: 'Nobrand Tools' }),
          good(s1, { price: '12.345' }),
          good(s2, { price: 'abc' }),
          good(s3),
          good(s3, { name: 'Same SKU again' }),
          good(s4, { category: 'Gardening Gnomes' }),
          good(s5, { subcategory: 'Spoons' }),
          good(s6, { stockQuantity: '-3' }),
          good(s7, { isFeatured: 'maybe' }),
          good(s8, { price: '' }),
        ]);
        const before = await snapshot();
        const answer = await importCsv(csv);
        expect(answer.status).toBe(400);
        expect(answer.body).toEqual({
          message: 'No products were imported: 9 row(s) have problems',
          applied: false,
          created: 0,
          updated: 0,
          rejected: [
            { row: 2, sku: s0, reason: "Unknown brand 'Nobrand Tools'" },
            { row: 3, sku: s1, reason: 'price: Use at most two decimals (cents)' },
            { row: 4, sku: s2, reason: 'price: Must be a number' },
            { row: 6, sku: s3, reason: 'The SKU appears twice in the file' },
            { row: 7, sku: s4, reason: "Unknown category 'Gardening Gnomes'" },
            { row: 8, sku: s5, reason: `Unknown subcategory 'Spoons' in ${place.categoryName}` },
            { row: 9, sku: s6, reason: 'stockQuantity: Stock quantity must be 0 or more' },
            { row: 10, sku: s7, reason: 'isFeatured and isActive must be true or false' },
            { row: 11, sku: s8, reason: 'price: Price is required' },
          ],
        });
        expect(await snapshot()).toEqual(before);
      });

      it('a file without a required column is refused whole, naming the column', async () => {
        const columns = PRODUCT_CSV_COLUMNS.filter((column) => column !== 'price' && column !== 'brand');
        const csv = csvOf([{ sku: uniqueSku('NOCOL'), name: 'No price column' }], columns);
        const before = await snapshot();
        const answer = await importCsv(csv);
        expect(answer.status).toBe(400);
        expect(answer.body).toEqual({
          message: 'No products were imported: 1 row(s) have problems',
          applied: false,
          created: 0,
          updated: 0,
          rejected: [{ row: 0, sku: '', reason: 'Missing column(s): brand, price' }],
        });
        expect(await snapshot()).toEqual(before);
      });

      it('an empty file, a header only, and text that is not CSV are refused', async () => {
        const before = await snapshot();
        for (const [csv, reason] of [
          [`${CSV_HEADER}\n`, 'The file has no rows'],
          ['', 'The file has no rows'],
        ] as const) {
          const answer = await importCsv(csv);
          expect(answer.status).toBe(400);
          expect(answer.body.rejected).toEqual([{ row: 0, sku: '', reason }]);
        }
        const broken = await importCsv(`${CSV_HEADER}\n"unterminated,quote\n`);
        expect(broken.status).toBe(400);
        expect(broken.body.rejected).toHaveLength(1);
        expect(broken.body.rejected[0]?.reason).toMatch(/^The file is not valid CSV: /);
        expect(await snapshot()).toEqual(before);
      });

      it('a mixed file (good new rows, a good update, one bad row) answers 400 and writes nothing', async () => {
        const existing = await create({ price: 50, discountPrice: undefined });
        const exported = rowsOf(await exportCsv()).find((row) => row.sku === existing.sku);
        if (!exported) throw new Error('The product is missing from the export');
        const fresh = uniqueSku('MIX');
        const csv = csvOf([
          { ...exported, price: '60.00', name: 'Changed by the import' },
          { ...exported, sku: fresh, name: 'New from a mixed file' },
          { ...exported, sku: uniqueSku('MIX'), brand: 'Nobrand Tools' },
        ]);
        const before = await snapshot();
        const answer = await importCsv(csv);
        expect(answer.status).toBe(400);
        expect(answer.body.applied).toBe(false);
        expect(answer.body.created).toBe(0);
        expect(answer.body.updated).toBe(0);
        expect(answer.body.rejected).toEqual([
          { row: 4, sku: expect.stringMatching(/^ADM-MIX-/), reason: "Unknown brand 'Nobrand Tools'" },
        ]);
        expect(await snapshot()).toEqual(before);
        const read = await call<Product>('GET', `/api/products/${existing.id}`, { token: null });
        expect(read.body).toMatchObject({ price: 50, name: existing.name });
        const search = await call<AdminProductPage>('GET', `/api/admin/products?q=${fresh}`);
        expect(search.body.totalCount).toBe(0);

        // Without the bad row the same file applies: one update, one create.
        const fixed = await importCsv(csvOf(rowsOf(csv).slice(0, 2)));
        expect(fixed.status).toBe(200);
        expect(fixed.body).toEqual({ applied: true, created: 1, updated: 1, rejected: [] });
        const updated = await call<Product>('GET', `/api/products/${existing.id}`, { token: null });
        expect(updated.body).toMatchObject({ price: 60, name: 'Changed by the import' });
      });

      it('refuses a SKU that a variant of a product holds', async () => {
        const variantSku = uniqueSku('VARCSV');
        await create({ variants: [{ name: 'Held', sku: variantSku, stockQuantity: 1 }] });
        const before = await snapshot();
        const answer = await importCsv(
          csvOf([
            {
              sku: variantSku,
              name: 'Clashes with a variant',
              brand: place.brandName,
              category: place.categoryName,
              subcategory: place.subcategoryName,
              price: '1.00',
            },
          ]),
        );
        expect(answer.status).toBe(400);
        expect(answer.body.rejected).toEqual([
          { row: 2, sku: variantSku, reason: PRODUCT_MESSAGES.duplicateVariantSku },
        ]);
        expect(await snapshot()).toEqual(before);
      });

      it('415 unless multipart, 400 without a file, 413 over 20 MB', async () => {
        const before = await snapshot();
        const json = await call('POST', '/api/admin/products/import', { body: { file: 'sku,name' } });
        expect(json.status).toBe(415);
        expect(json.body).toEqual({ message: 'Send the CSV as multipart/form-data in the field `file`' });
        const text = await call('POST', '/api/admin/products/import', {
          raw: `${CSV_HEADER}\n`,
          headers: { 'content-type': 'text/csv' },
        });
        expect(text.status).toBe(415);
        expect(text.body).toEqual({ message: 'Unsupported content type' });

        const noFile = await multipart([], { note: 'no file here' });
        const empty = await call<ImportReport>('POST', '/api/admin/products/import', {
          raw: noFile.body,
          headers: { 'content-type': noFile.contentType },
        });
        expect(empty.status).toBe(400);
        expect(empty.body).toEqual({
          message: 'No file was sent',
          applied: false,
          created: 0,
          updated: 0,
          rejected: [],
        });

        const big = Buffer.alloc(20 * 1024 * 1024 + 1024, 'a');
        const tooLarge = await importCsv(big);
        expect(tooLarge.status).toBe(413);
        expect(tooLarge.body).toEqual({ message: 'The file is larger than 20 MB' });
        expect(await snapshot()).toEqual(before);
      });
    });

    it('has one audit entry per successful write, each with who, what and when, and none for refused ones', async () => {
      const rows = await shop.database.db
        .select({ action: auditLog.action, n: sql<number>`count(*)::int` })
        .from(auditLog)
        .groupBy(auditLog.action);
      expect(Object.fromEntries(rows.map((row) => [row.action, Number(row.n)]))).toEqual(writes);
      expect(writes['product.create']).toBeGreaterThan(15);
      const entries = await shop.database.db.select().from(auditLog);
      for (const entry of entries) {
        expect(entry.actorUserId).toBe(admin.id);
        expect(entry.actorEmail).toBe(admin.email);
        expect(Math.abs(entry.createdAt.getTime() - Date.now())).toBeLessThan(5 * 60_000);
      }
    });
  });
}
