import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Brand, Product, ProductPage } from '../../contracts/catalog.ts';
import type { SearchResponse, SearchResult, Suggestion } from '../../contracts/search.ts';
import { brands, productSearch, products, searchSuggestions } from '../../db/schema.ts';
import { isPostgresReachable } from '../helpers/postgres.ts';
import { createTestShop, type DatabaseKind, type TestShop } from '../helpers/test-app.ts';

const postgresAvailable = await isPostgresReachable();
const kinds: { kind: DatabaseKind; skip: boolean }[] = [
  { kind: 'pglite', skip: false },
  { kind: 'postgres', skip: !postgresAvailable },
];

interface ErrorBody {
  message: string;
  errors: Record<string, string[]>;
}

/** The model number at the end of a seeded name: "Voltrex 18V Hammer Drill VX-HD853 (Skin Only)" → "VX-HD853". */
function modelOf(name: string): string | null {
  return /\b([A-Z]{2})-([A-Z]{2})(\d{3,5})\b/.exec(name)?.[0] ?? null;
}

const sellingPrice = (result: SearchResult) => result.discountPrice ?? result.price;

for (const { kind, skip } of kinds) {
  describe.skipIf(skip)(`search API on ${kind}`, () => {
    let shop: TestShop;
    let catalogue: Product[];
    let brandList: Brand[];

    async function get<T>(url: string): Promise<{ status: number; body: T }> {
      const response = await shop.app.inject({ method: 'GET', url });
      return { status: response.statusCode, body: response.json() as T };
    }
    const search = async (query: string) => {
      const { status, body } = await get<SearchResponse>(`/api/search?${query}`);
      expect(status, query).toBe(200);
      return body;
    };
    const suggest = async (term: string) => {
      const { status, body } = await get<Suggestion[]>(`/api/search/autocomplete?term=${encodeURIComponent(term)}`);
      expect(status, term).toBe(200);
      return body;
    };
    /** Every result of a search, page by page. */
    async function allResults(query: string, pageSize = 100): Promise<SearchResult[]> {
      const results: SearchResult[] = [];
      for (let page = 1; ; page++) {
        const body = await search(`${query}&pageSize=${pageSize}&page=${page}`);
        results.push(...body.results);
        if (page >= body.totalPages) return results;
      }
    }

    beforeAll(async () => {
      shop = await createTestShop(kind);
      catalogue = (await get<ProductPage>('/api/products?limit=1000')).body.items;
      brandList = (await get<Brand[]>('/api/brands')).body;
    });
    afterAll(async () => {
      await shop?.close();
    });

    describe('GET /api/search/autocomplete', () => {
      it('answers an empty list below two characters after trimming', async () => {
        for (const term of ['', 'd', '  d  ', ' ']) expect(await suggest(term), JSON.stringify(term)).toEqual([]);
      });

      it('mixes brands and products, brand first, at most 10, in the spec shape', async () => {
        const brand = brandList.find((candidate) => /^[A-Za-z]+$/.test(candidate.name))!;
        const suggestions = await suggest(brand.name.slice(0, 4).toLowerCase());
        expect(suggestions.length).toBeGreaterThan(1);
        expect(suggestions.length).toBeLessThanOrEqual(10);
        expect(suggestions[0]).toEqual({ type: 'Brand', value: brand.name, category: 'Brand', referenceId: brand.id });
        const product = suggestions.find((suggestion) => suggestion.type === 'Product')!;
        const match = catalogue.find((candidate) => candidate.id === product.referenceId)!;
        expect(product).toEqual({
          type: 'Product',
          value: match.name,
          category: match.categoryName,
          referenceId: match.id,
        });
      });

      it('suggests categories by name', async () => {
        const suggestions = await suggest('power too');
        expect(suggestions).toContainEqual(expect.objectContaining({ type: 'Category', value: 'Power Tools' }));
      });

      it('reads the last word as unfinished and never suggests from descriptions', async () => {
        const suggestions = await suggest('hammer dri');
        expect(suggestions.length).toBeGreaterThan(0);
        for (const suggestion of suggestions) {
          expect(suggestion.type).toBe('Product');
          expect(suggestion.value).toMatch(/hammer/i);
          expect(suggestion.value).toMatch(/\bdri/i);
        }
      });

      it('puts the product with an exact model number first, however it is written', async () => {
        const product = catalogue.find((candidate) => modelOf(candidate.name))!;
        const model = modelOf(product.name)!;
        for (const variant of [model, model.replace('-', ''), model.toLowerCase(), model.replace('-', ' ')]) {
          const [first] = await suggest(variant);
          expect(first, variant).toMatchObject({ type: 'Product', referenceId: product.id });
        }
        // Half a model number still finds it.
        const partial = await suggest(model.slice(0, -1));
        expect(partial.map((suggestion) => suggestion.referenceId)).toContain(product.id);
      });

      it('forgives a misspelt brand', async () => {
        const suggestions = await suggest('voltrx');
        expect(suggestions[0]).toMatchObject({ type: 'Brand', value: 'Voltrex' });
      });

      it('answers [] for words that match nothing at all', async () => {
        expect(await suggest('qqzzxx')).toEqual([]);
      });

      it('rejects a term over 100 characters naming the field', async () => {
        const { status, body } = await get<ErrorBody>(`/api/search/autocomplete?term=${'a'.repeat(101)}`);
        expect(status).toBe(400);
        expect(body.message).toBe('Invalid query parameter: term');
      });
    });

    describe('GET /api/search: matching and ranking', () => {
      it('answers the spec shape with stock status and a bounded page', async () => {
        const body = await search('term=drill');
        expect(body).toMatchObject({ query: 'drill', correctedQuery: null, page: 1, pageSize: 20 });
        expect(body.totalCount).toBeGreaterThan(0);
        expect(body.totalPages).toBe(Math.ceil(body.totalCount / 20));
        expect(body.results.length).toBe(Math.min(20, body.totalCount));
        for (const result of body.results) {
          expect(Object.keys(result)).toEqual(
            expect.arrayContaining([
              'id',
              'name',
              'price',
              'discountPrice',
              'imageUrl',
              'brand',
              'stockStatus',
              'SKU',
              'category',
              'isFeatured',
              'stockQuantity',
            ]),
          );
          const expected =
            result.stockQuantity <= 0 ? 'out_of_stock' : result.stockQuantity <= 5 ? 'low_stock' : 'in_stock';
          expect(result.stockStatus).toBe(expected);
        }
      });

      it('ranks products with the word in their name above those with it only in the description', async () => {
        const results = await allResults('term=drill');
        const inName = results.map((result) => /drill/i.test(result.name));
        expect(inName.includes(true)).toBe(true);
        // Some products only mention drilling in their description…
        const descriptionOnly = results.filter((result) => !/drill/i.test(`${result.name} ${result.category}`));
        expect(descriptionOnly.length).toBeGreaterThan(0);
        // …and every one of them comes after every name match.
        expect(inName.lastIndexOf(true)).toBeLessThan(inName.indexOf(false));
      });

      it('finds a product by its model number with or without punctuation, exact match first', async () => {
        const product = catalogue.find((candidate) => modelOf(candidate.name))!;
        const model = modelOf(product.name)!;
        const [letters, digits] = [model.replace(/\d+$/, ''), model.match(/\d+$/)![0]];
        const variants = [
          model,
          model.replace('-', ''),
          model.toLowerCase(),
          model.replace('-', ' '),
          `${letters.replace('-', ' ')} ${digits}`,
        ];
        for (const variant of variants) {
          const body = await search(`term=${encodeURIComponent(variant)}`);
          expect(body.results[0]?.id, variant).toBe(product.id);
        }
        const bySku = await search(`term=${encodeURIComponent(product.sku)}`);
        expect(bySku.results[0]?.id).toBe(product.id);
      });

      it('treats plural and singular alike', async () => {
        for (const [one, many] of [
          ['drill', 'drills'],
          ['battery', 'batteries'],
          ['grinder', 'grinders'],
        ]) {
          const singular = await search(`term=${one}`);
          const plural = await search(`term=${many}`);
          expect(singular.totalCount, one).toBeGreaterThan(0);
          expect(plural.totalCount, many).toBe(singular.totalCount);
        }
      });

      it('matches brand, category and subcategory words as well as names', async () => {
        const body = await search('term=voltrex');
        expect(body.totalCount).toBe(catalogue.filter((product) => product.brandName === 'Voltrex').length);
        const category = await search(`term=${encodeURIComponent('outdoor power equipment')}`);
        expect(category.filters.categories[0]?.name).toBe('Outdoor Power Equipment');
      });

      it('corrects misspelt brand and tool words and says so', async () => {
        const typos: [string, string][] = [
          ['hamer drill', 'hammer drill'],
          ['kelvnae', 'kelvane'],
          ['voltrx', 'voltrex'],
          ['grindr', 'grinder'],
          ['cordles drill', 'cordless drill'],
        ];
        for (const [typo, corrected] of typos) {
          const body = await search(`term=${encodeURIComponent(typo)}`);
          expect(body.correctedQuery, typo).toBe(corrected);
          const intended = await search(`term=${encodeURIComponent(corrected)}`);
          expect(body.totalCount, typo).toBe(intended.totalCount);
          expect(body.results.map((result) => result.id)).toEqual(intended.results.map((result) => result.id));
        }
      });

      it('reads an unfinished last word as a prefix when nothing matches it whole', async () => {
        const body = await search('term=hammer%20dri');
        expect(body.totalCount).toBeGreaterThan(0);
        expect(body.correctedQuery).toBeNull();
        // Names with both words come first; other products mention them in their descriptions.
        expect(body.results[0]?.name).toMatch(/hammer.*\bdri|\bdri.*hammer/i);
      });

      it('offers the closest matches when nothing is found', async () => {
        const nothing = await search('term=qqzzxx');
        expect(nothing).toMatchObject({ totalCount: 0, totalPages: 0, results: [], closestMatches: [] });

        // Words that exist, but not together: products with some of them.
        const someWords = await search(`term=${encodeURIComponent('voltrex qqzzxx')}`);
        expect(someWords.totalCount).toBe(0);
        expect(someWords.closestMatches.length).toBeGreaterThan(0);
        for (const match of someWords.closestMatches) expect(match.brand).toBe('Voltrex');

        // A filter that leaves nothing: the same words in the whole shop.
        const drills = await search('term=drill');
        const filtered = await search('term=drill&minPrice=999999');
        expect(filtered.totalCount).toBe(0);
        expect(filtered.closestMatches.map((match) => match.id)).toEqual(drills.results.slice(0, 8).map((r) => r.id));
      });

      it('lists every active product for an empty term', async () => {
        const body = await search('term=');
        expect(body.totalCount).toBe(catalogue.length);
      });
    });

    describe('GET /api/search: facets, filters, sorting and paging', () => {
      it('counts categories and brands for the current query, each equal to the total when ticked', async () => {
        const body = await search('term=drill');
        const categoryTotal = body.filters.categories.reduce((sum, facet) => sum + facet.productCount, 0);
        const brandTotal = body.filters.brands.reduce((sum, facet) => sum + facet.productCount, 0);
        expect(categoryTotal).toBe(body.totalCount);
        expect(brandTotal).toBe(body.totalCount);
        for (const facet of body.filters.categories) {
          const ticked = await search(`term=drill&categoryId=${facet.id}`);
          expect(ticked.totalCount, facet.name).toBe(facet.productCount);
          for (const result of ticked.results) expect(result.categoryId).toBe(facet.id);
          // With a category ticked, the brand counts describe that category.
          const brandSum = ticked.filters.brands.reduce((sum, brand) => sum + brand.productCount, 0);
          expect(brandSum).toBe(facet.productCount);
          // …and the category list still offers the others, to switch to.
          expect(ticked.filters.categories).toEqual(body.filters.categories);
        }
        for (const facet of body.filters.brands.slice(0, 4)) {
          const ticked = await search(`term=drill&brandId=${facet.id}`);
          expect(ticked.totalCount, facet.name).toBe(facet.productCount);
          for (const result of ticked.results) expect(result.brandId).toBe(facet.id);
        }
      });

      it('combines a category and a brand, and keeps a ticked facet listed even at 0', async () => {
        const body = await search('term=drill');
        const category = body.filters.categories[0]!;
        const inCategory = await search(`term=drill&categoryId=${category.id}`);
        const brand = inCategory.filters.brands[0]!;
        const both = await search(`term=drill&categoryId=${category.id}&brandId=${brand.id}`);
        expect(both.totalCount).toBe(brand.productCount);
        expect(both.filters.categories.find((facet) => facet.id === category.id)?.productCount).toBe(
          brand.productCount,
        );

        const otherCategory = body.filters.categories.at(-1)!;
        const absentBrand = brandList.find(
          (candidate) => !body.filters.brands.some((facet) => facet.id === candidate.id),
        )!;
        const none = await search(`term=drill&categoryId=${otherCategory.id}&brandId=${absentBrand.id}`);
        expect(none.totalCount).toBe(0);
        expect(none.filters.brands).toContainEqual({ id: absentBrand.id, name: absentBrand.name, productCount: 0 });
      });

      it('filters by the price a shopper pays, inclusive', async () => {
        const all = await allResults('term=drill');
        const prices = all.map(sellingPrice).sort((a, b) => a - b);
        const [min, max] = [prices[Math.floor(prices.length / 4)]!, prices[Math.floor((prices.length * 3) / 4)]!];
        const body = await allResults(`term=drill&minPrice=${min}&maxPrice=${max}`);
        expect(body.length).toBe(prices.filter((price) => price >= min && price <= max).length);
        for (const result of body) expect(sellingPrice(result)).toBeGreaterThanOrEqual(min);
        for (const result of body) expect(sellingPrice(result)).toBeLessThanOrEqual(max);
      });

      it('sorts by price, name and featured', async () => {
        const byPrice = (await search('term=drill&sortBy=price_asc&pageSize=100')).results.map(sellingPrice);
        expect(byPrice).toEqual([...byPrice].sort((a, b) => a - b));
        const byPriceDesc = (await search('term=drill&sortBy=price_desc&pageSize=100')).results.map(sellingPrice);
        expect(byPriceDesc).toEqual([...byPriceDesc].sort((a, b) => b - a));
        const names = (await search('term=drill&sortBy=name_asc&pageSize=100')).results.map((r) =>
          r.name.toLowerCase(),
        );
        expect(names).toEqual([...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
        const namesDesc = (await search('term=drill&sortBy=name_desc&pageSize=100')).results.map((r) =>
          r.name.toLowerCase(),
        );
        expect(namesDesc).toEqual([...namesDesc].sort((a, b) => (a < b ? 1 : a > b ? -1 : 0)));
        const featured = (await search('term=drill&sortBy=featured&pageSize=100')).results.map((r) => r.isFeatured);
        expect(featured).toEqual([...featured].sort((a, b) => Number(b) - Number(a)));
      });

      it('pages without gaps or repeats in every order, and answers an empty page past the end', async () => {
        for (const sortBy of ['relevance', 'price_asc', 'name_desc', 'featured']) {
          const whole = await search(`term=drill&sortBy=${sortBy}&pageSize=100`);
          const paged = await allResults(`term=drill&sortBy=${sortBy}`, 7);
          expect(
            paged.map((result) => result.id),
            sortBy,
          ).toEqual(whole.results.map((result) => result.id));
        }
        const first = await search('term=drill&pageSize=7');
        const last = await search(`term=drill&pageSize=7&page=${first.totalPages}`);
        expect(last.results.length).toBe(first.totalCount - 7 * (first.totalPages - 1));
        const past = await search(`term=drill&pageSize=7&page=${first.totalPages + 1}`);
        expect(past).toMatchObject({ totalCount: first.totalCount, totalPages: first.totalPages, results: [] });
        expect(past.closestMatches).toEqual([]);
      });

      it('answers 400 naming the field for every bad parameter', async () => {
        const cases: [string, string][] = [
          ['page=0', 'page'],
          ['page=abc', 'page'],
          ['page=1.5', 'page'],
          ['page=501', 'page'],
          ['pageSize=0', 'pageSize'],
          ['pageSize=101', 'pageSize'],
          ['pageSize=x', 'pageSize'],
          ['sortBy=cheapest', 'sortBy'],
          ['categoryId=abc', 'categoryId'],
          ['categoryId=0', 'categoryId'],
          ['brandId=-1', 'brandId'],
          ['brandId=1e3', 'brandId'],
          ['minPrice=-1', 'minPrice'],
          ['minPrice=cheap', 'minPrice'],
          ['maxPrice=abc', 'maxPrice'],
          ['minPrice=50&maxPrice=10', 'maxPrice'],
          [`term=${'a'.repeat(101)}`, 'term'],
        ];
        for (const [query, field] of cases) {
          const { status, body } = await get<ErrorBody>(`/api/search?term=drill&${query}`);
          expect(status, query).toBe(400);
          expect(body.message, query).toBe(`Invalid query parameter: ${field}`);
          expect(body.errors[field]?.length, query).toBeGreaterThan(0);
        }
        // Unknown parameters (cache busters) are ignored.
        expect((await get(`/api/search?term=drill&t=${Date.now()}`)).status).toBe(200);
      });
    });

    describe('keeping search data in step with the catalogue', () => {
      it('follows new, renamed, re-branded and deactivated products', async () => {
        const { db } = shop.database;
        const template = catalogue[0]!;
        const [created] = await db
          .insert(products)
          .values({
            sku: 'ZQ-TS4242-K',
            name: 'Zephyrine Torque Wrench ZQ-TS4242',
            description: 'A flamboyant calibrated wrench.',
            priceCents: 12_345,
            brandId: template.brandId,
            categoryId: template.categoryId,
            subcategoryId: template.subcategoryId,
          })
          .returning({ id: products.id });
        const ids = async (term: string) => (await search(`term=${encodeURIComponent(term)}`)).results.map((r) => r.id);
        expect(await ids('zephyrine')).toEqual([created!.id]);
        expect(await ids('zqts4242')).toEqual([created!.id]);
        expect(await ids('flamboyant')).toEqual([created!.id]);
        expect((await suggest('zephyr'))[0]).toMatchObject({ type: 'Product', referenceId: created!.id });
        // Its words join the vocabulary, so a typo of a brand-new word is corrected too.
        expect((await search('term=zephyrnie')).correctedQuery).toBe('zephyrine');

        await db
          .update(products)
          .set({ name: 'Quillfeather Torque Wrench ZQ-TS4242' })
          .where(eq(products.id, created!.id));
        expect(await ids('zephyrine')).toEqual([]);
        expect(await ids('quillfeather')).toEqual([created!.id]);

        const [brand] = await db
          .update(brands)
          .set({ name: 'Brandnewname Tools' })
          .where(eq(brands.id, template.brandId))
          .returning({ id: brands.id });
        expect(await ids('quillfeather brandnewname')).toEqual([created!.id]);
        expect((await suggest('brandnew'))[0]).toMatchObject({ type: 'Brand', referenceId: brand!.id });

        await db.update(products).set({ isActive: false }).where(eq(products.id, created!.id));
        expect(await ids('quillfeather')).toEqual([]);
        await db.delete(products).where(eq(products.id, created!.id));
        await db.update(brands).set({ name: template.brandName }).where(eq(brands.id, template.brandId));
      });

      it('forgets the brands and categories of a catalogue that is reset', async () => {
        const { db } = shop.database;
        // Inside a transaction that is rolled back, so the other tests keep their catalogue.
        const before = await db.$count(searchSuggestions);
        expect(before).toBe(brandList.length + (await get<unknown[]>('/api/categories')).body.length);
        await db
          .transaction(async (tx) => {
            await tx.execute(
              sql`TRUNCATE TABLE reviews, product_variants, product_images, products, subcategories, brands, categories CASCADE`,
            );
            expect(await tx.$count(searchSuggestions)).toBe(0);
            expect(await tx.$count(productSearch)).toBe(0);
            tx.rollback();
          })
          .catch((error: Error) => {
            if (!/rollback/i.test(error.message)) throw error;
          });
        expect(await db.$count(searchSuggestions)).toBe(before);
      });
    });
  });
}
