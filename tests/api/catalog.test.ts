import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Brand, Category, FullProduct, Product, ProductPage, Subcategory } from '../../contracts/catalog.ts';
import { isPostgresReachable } from '../helpers/postgres.ts';
import { createTestShop, type DatabaseKind, TEST_CATALOGUE_PRODUCTS, type TestShop } from '../helpers/test-app.ts';

const postgresAvailable = await isPostgresReachable();
const kinds: { kind: DatabaseKind; skip: boolean }[] = [
  { kind: 'pglite', skip: false },
  { kind: 'postgres', skip: !postgresAvailable },
];

for (const { kind, skip } of kinds) {
  describe.skipIf(skip)(`catalogue API on ${kind}`, () => {
    let shop: TestShop;
    let categories: Category[];

    async function get<T>(url: string): Promise<{ status: number; body: T; headers: Record<string, unknown> }> {
      const response = await shop.app.inject({ method: 'GET', url });
      return { status: response.statusCode, body: response.json() as T, headers: response.headers };
    }

    beforeAll(async () => {
      shop = await createTestShop(kind);
      categories = (await get<Category[]>('/api/categories')).body;
    });
    afterAll(async () => {
      await shop?.close();
    });

    describe('GET /api/health', () => {
      it('answers 200 while the database is reachable', async () => {
        const { status, body } = await get('/api/health');
        expect(status).toBe(200);
        expect(body).toEqual({ status: 'ok', database: 'up' });
      });
    });

    describe('GET /api/categories', () => {
      it('lists every category sorted by name with relative image paths', async () => {
        expect(categories.length).toBeGreaterThanOrEqual(12);
        const names = categories.map((category) => category.name);
        expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
        for (const category of categories) {
          expect(category.imageUrl).toMatch(/^\/media\//);
          expect(category).not.toHaveProperty('images');
        }
      });

      it('adds images[] with a primary image when includeImages=true', async () => {
        const { body } = await get<Category[]>('/api/categories?includeImages=true');
        for (const category of body) {
          expect(category.images).toEqual([{ imageUrl: category.imageUrl, isPrimary: true }]);
        }
      });

      it('rejects an unknown includeImages value with 400 naming the field', async () => {
        const { status, body } = await get<{ message: string; errors: Record<string, string[]> }>(
          '/api/categories?includeImages=maybe',
        );
        expect(status).toBe(400);
        expect(body.message).toBe('Invalid query parameter: includeImages');
        expect(body.errors.includeImages).toEqual(['Must be true or false']);
      });
    });

    describe('GET /api/subcategories', () => {
      it('lists the subcategories of one category', async () => {
        const category = categories[0]!;
        const { status, body } = await get<Subcategory[]>(
          `/api/subcategories?categoryId=${category.id}&includeImages=true`,
        );
        expect(status).toBe(200);
        expect(body.length).toBeGreaterThanOrEqual(5);
        for (const subcategory of body) {
          expect(subcategory.categoryId).toBe(category.id);
          expect(subcategory.categoryName).toBe(category.name);
          expect(subcategory.images?.[0]?.isPrimary).toBe(true);
        }
      });

      it('lists at least 60 subcategories in all', async () => {
        const { body } = await get<Subcategory[]>('/api/subcategories');
        expect(body.length).toBeGreaterThanOrEqual(60);
      });

      it('answers one subcategory by id, 404 when missing, 400 when malformed', async () => {
        const [first] = (await get<Subcategory[]>('/api/subcategories')).body;
        const found = await get<Subcategory>(`/api/subcategories/${first!.id}`);
        expect(found.status).toBe(200);
        expect(found.body.name).toBe(first!.name);

        const missing = await get<{ message: string }>('/api/subcategories/999999');
        expect(missing).toMatchObject({ status: 404, body: { message: 'Subcategory not found' } });

        for (const bad of ['abc', '1.5', '-3', '0', '99999999999']) {
          const malformed = await get<{ message: string }>(`/api/subcategories/${bad}`);
          expect(malformed.status, bad).toBe(400);
          expect(malformed.body.message).toBe('Invalid path parameter: id');
        }
      });
    });

    describe('GET /api/brands', () => {
      it('lists at least 25 brands with logos', async () => {
        const { body } = await get<Brand[]>('/api/brands?includeImages=true');
        expect(body.length).toBeGreaterThanOrEqual(25);
        for (const brand of body) {
          expect(brand.logoUrl).toMatch(/^\/media\//);
          expect(brand.images?.[0]?.isPrimary).toBe(true);
        }
      });

      it('limits brands to those with products in a category, with counts that add up', async () => {
        const category = categories.find((candidate) => (candidate.productCount ?? 0) > 0)!;
        const { body } = await get<Brand[]>(`/api/brands?categoryId=${category.id}&includeImages=true`);
        expect(body.length).toBeGreaterThan(0);
        const total = body.reduce((sum, brand) => sum + (brand.productCount ?? 0), 0);
        const listing = await get<ProductPage>(`/api/products?categoryId=${category.id}&limit=1`);
        expect(total).toBe(listing.body.totalCount);
      });

      it('rejects a malformed categoryId', async () => {
        const { status, body } = await get<{ message: string }>('/api/brands?categoryId=x');
        expect(status).toBe(400);
        expect(body.message).toBe('Invalid query parameter: categoryId');
      });
    });

    describe('GET /api/products', () => {
      it('pages through active products with totals', async () => {
        const first = await get<ProductPage>('/api/products?limit=10&page=1');
        expect(first.status).toBe(200);
        expect(first.body.items).toHaveLength(10);
        expect(first.body.totalCount).toBeGreaterThan(TEST_CATALOGUE_PRODUCTS * 0.9);
        expect(first.body.totalCount).toBeLessThanOrEqual(TEST_CATALOGUE_PRODUCTS);
        expect(first.body.totalPages).toBe(Math.ceil(first.body.totalCount / 10));
        const second = await get<ProductPage>('/api/products?limit=10&page=2');
        const firstIds = new Set(first.body.items.map((product) => product.id));
        expect(second.body.items.some((product) => firstIds.has(product.id))).toBe(false);
        for (const product of first.body.items) expect(product.isActive).toBe(true);
      });

      it('gives an empty page past the end, not an error', async () => {
        const { status, body } = await get<ProductPage>('/api/products?limit=50&page=9999');
        expect(status).toBe(200);
        expect(body.items).toEqual([]);
        expect(body.totalCount).toBeGreaterThan(0);
      });

      it('shapes a product as spec §3: camelCase, dollars with 2 decimals, relative images', async () => {
        const { body } = await get<ProductPage>('/api/products?limit=50');
        for (const product of body.items) {
          expect(Number.isInteger(Math.round(product.price * 100))).toBe(true);
          expect(Math.abs(product.price * 100 - Math.round(product.price * 100))).toBeLessThan(1e-6);
          expect(product.imageUrl).toMatch(/^\/media\//);
          expect(product.images[0]).toMatchObject({ imageUrl: product.imageUrl, isPrimary: true });
          expect(product.sku).toBeTruthy();
          expect(product.rating).toBe(product.averageRating);
          if (product.discountPrice !== null) expect(product.discountPrice).toBeLessThan(product.price);
        }
      });

      it('filters by category, subcategory, brand and brand list', async () => {
        const category = categories[0]!;
        const byCategory = await get<ProductPage>(`/api/products?categoryId=${category.id}&limit=100`);
        expect(byCategory.body.items.every((product) => product.categoryId === category.id)).toBe(true);

        const sample = byCategory.body.items[0]!;
        const bySubcategory = await get<ProductPage>(`/api/products?subcategoryId=${sample.subcategoryId}&limit=100`);
        expect(bySubcategory.body.items.length).toBeGreaterThan(0);
        expect(bySubcategory.body.items.every((product) => product.subcategoryId === sample.subcategoryId)).toBe(true);

        const byBrand = await get<ProductPage>(`/api/products?brandId=${sample.brandId}&limit=1000`);
        expect(byBrand.body.items.every((product) => product.brandId === sample.brandId)).toBe(true);

        const brandIds = [...new Set(byCategory.body.items.map((product) => product.brandId))].slice(0, 2);
        const byBrands = await get<ProductPage>(`/api/products?brandIds=${brandIds.join(',')}&limit=1000`);
        expect(byBrands.body.items.every((product) => brandIds.includes(product.brandId))).toBe(true);
        expect(new Set(byBrands.body.items.map((product) => product.brandId)).size).toBe(brandIds.length);
      });

      it('filters featured and redemption products, and the flag endpoints agree', async () => {
        const featured = await get<ProductPage>('/api/products?featured=true&limit=12');
        expect(featured.body.items.length).toBeGreaterThan(0);
        expect(featured.body.items.every((product) => product.isFeatured)).toBe(true);
        const featuredEndpoint = await get<ProductPage>('/api/products/featured?limit=12');
        expect(featuredEndpoint.body.items.map((product) => product.id)).toEqual(
          featured.body.items.map((product) => product.id),
        );

        const redemption = await get<ProductPage>('/api/products/redemption?limit=8');
        expect(redemption.body.items.length).toBeGreaterThan(0);
        expect(redemption.body.items.every((product) => product.isRedemption)).toBe(true);
        const redemptionFilter = await get<ProductPage>('/api/products?isRedemption=true&limit=1');
        expect(redemptionFilter.body.totalCount).toBe(redemption.body.totalCount);
      });

      it('filters by price range on the price a shopper pays', async () => {
        const { body } = await get<ProductPage>('/api/products?minPrice=50&maxPrice=150&limit=1000');
        expect(body.items.length).toBeGreaterThan(0);
        for (const product of body.items) {
          const paid = product.discountPrice ?? product.price;
          expect(paid).toBeGreaterThanOrEqual(50);
          expect(paid).toBeLessThanOrEqual(150);
        }
      });

      it('filters by minimum rating', async () => {
        const { body } = await get<ProductPage>('/api/products?minRating=4&limit=1000');
        expect(body.items.length).toBeGreaterThan(0);
        for (const product of body.items) {
          expect(product.reviewCount).toBeGreaterThan(0);
          expect(product.averageRating).toBeGreaterThanOrEqual(3.95);
        }
      });

      it('sorts by price both ways and by name', async () => {
        const effective = (product: Product) => product.discountPrice ?? product.price;
        const ascending = (await get<ProductPage>('/api/products?sort=price_asc&limit=100')).body.items.map(effective);
        expect(ascending).toEqual([...ascending].sort((a, b) => a - b));
        const descending = (await get<ProductPage>('/api/products?sort=price_desc&limit=100')).body.items.map(
          effective,
        );
        expect(descending).toEqual([...descending].sort((a, b) => b - a));
        const names = (await get<ProductPage>('/api/products?sort=name_asc&limit=100')).body.items.map((p) => p.name);
        const collator = new Intl.Collator('en', { sensitivity: 'base' });
        for (let index = 1; index < names.length; index++) {
          expect(
            collator.compare(names[index - 1]!, names[index]!),
            `${names[index - 1]} before ${names[index]}`,
          ).toBeLessThanOrEqual(0);
        }
      });

      it.each([
        ['limit=0', 'limit'],
        ['limit=1001', 'limit'],
        ['limit=ten', 'limit'],
        ['page=0', 'page'],
        ['page=-1', 'page'],
        ['page=1.5', 'page'],
        ['page=10001', 'page'],
        ['sort=cheapest', 'sort'],
        ['brandId=abc', 'brandId'],
        ['categoryId=1.5', 'categoryId'],
        ['subcategoryId=-2', 'subcategoryId'],
        ['brandIds=1,x', 'brandIds'],
        ['featured=yes', 'featured'],
        ['isRedemption=1', 'isRedemption'],
        ['minPrice=-5', 'minPrice'],
        ['maxPrice=lots', 'maxPrice'],
        ['minRating=6', 'minRating'],
        ['minPrice=100&maxPrice=50', 'maxPrice'],
      ])('rejects %s with 400 naming %s', async (query, field) => {
        const { status, body } = await get<{ message: string; errors: Record<string, string[]> }>(
          `/api/products?${query}`,
        );
        expect(status).toBe(400);
        expect(body.message).toContain(field);
        expect(Object.keys(body.errors)).toContain(field);
        expect(JSON.stringify(body)).not.toMatch(/select|stack|at \w+ \(/i);
      });
    });

    describe('GET /api/products/:id and /api/products/full/:id', () => {
      it('answers one product with all its images, primary first', async () => {
        const [listed] = (await get<ProductPage>('/api/products?limit=1')).body.items;
        const { status, body } = await get<Product>(`/api/products/${listed!.id}`);
        expect(status).toBe(200);
        expect(body).toMatchObject({ id: listed!.id, name: listed!.name, price: listed!.price });
        expect(body.images.length).toBeGreaterThanOrEqual(2);
        expect(body.images[0]!.isPrimary).toBe(true);
        expect(body.images.filter((image) => image.isPrimary)).toHaveLength(1);
        expect(body.description.split('\n').length).toBeGreaterThanOrEqual(2);
        expect(Object.keys(body.specifications).length).toBeGreaterThan(0);
      });

      it('answers the full product with brand, category, subcategory, up to 4 related products and reviews', async () => {
        const [listed] = (await get<ProductPage>('/api/products?sort=rating_desc&limit=1')).body.items;
        const { status, body } = await get<FullProduct>(`/api/products/full/${listed!.id}`);
        expect(status).toBe(200);
        expect(body.product.id).toBe(listed!.id);
        expect(body.images).toEqual(body.product.images);
        expect(body.brand.id).toBe(body.product.brandId);
        expect(body.category.id).toBe(body.product.categoryId);
        expect(body.subcategory.id).toBe(body.product.subcategoryId);
        expect(body.relatedProducts.length).toBeGreaterThan(0);
        expect(body.relatedProducts.length).toBeLessThanOrEqual(4);
        for (const related of body.relatedProducts) {
          expect(related.id).not.toBe(body.product.id);
          expect(related.brandId === body.product.brandId || related.subcategoryId === body.product.subcategoryId).toBe(
            true,
          );
        }
        expect(body.reviews.length).toBe(Math.min(body.product.reviewCount, 20));
        const mean = body.reviews.reduce((sum, review) => sum + review.rating, 0) / body.reviews.length;
        if (body.product.reviewCount <= 20) expect(body.product.averageRating).toBeCloseTo(mean, 1);
      });

      it("answers 404 'Product not found' for a missing product", async () => {
        for (const url of ['/api/products/987654', '/api/products/full/987654']) {
          const { status, body } = await get(url);
          expect(status).toBe(404);
          expect(body).toEqual({ message: 'Product not found' });
        }
      });

      it.each(['abc', '0', '-1', '2.5', '1e3', '%20', '99999999999'])('answers 400 for id %s', async (id) => {
        for (const url of [`/api/products/${id}`, `/api/products/full/${id}`]) {
          const { status, body } = await get<{ message: string }>(url);
          expect(status, url).toBe(400);
          expect(body.message).toBe('Invalid path parameter: id');
        }
      });
    });

    describe('errors and docs', () => {
      it('answers unknown API routes with a JSON 404', async () => {
        const { status, body } = await get<{ message: string }>('/api/nothing-here');
        expect(status).toBe(404);
        expect(body.message).toMatch(/No API route/);
      });

      it('serves the OpenAPI document generated from the route schemas', async () => {
        const { status, body } = await get<{ openapi: string; paths: Record<string, unknown> }>('/api/docs/json');
        expect(status).toBe(200);
        expect(body.openapi).toMatch(/^3\./);
        for (const path of [
          '/api/categories',
          '/api/brands',
          '/api/subcategories',
          '/api/subcategories/{id}',
          '/api/products',
          '/api/products/featured',
          '/api/products/redemption',
          '/api/products/{id}',
          '/api/products/full/{id}',
        ]) {
          expect(body.paths, path).toHaveProperty([path]);
        }
      });

      it('tags every response with a request id', async () => {
        const response = await shop.app.inject({
          method: 'GET',
          url: '/api/health',
          headers: { 'x-request-id': 'abc-123' },
        });
        expect(response.headers['x-request-id']).toBe('abc-123');
      });
    });
  });
}
