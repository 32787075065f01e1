import { describe, expect, inject, it } from 'vitest';
import type { Brand, Category, ProductPage, Subcategory } from '../../contracts/catalog.ts';

const baseUrl = inject('baseUrl');

async function getJson<T>(path: string): Promise<T> {
  const response = await fetch(`${baseUrl}${path}`);
  if (!response.ok) throw new Error(`GET ${path}: ${response.status}`);
  return (await response.json()) as T;
}

function locs(xml: string): string[] {
  return [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1]!.replaceAll('&amp;', '&'));
}

describe('search engines', () => {
  it('robots.txt keeps crawlers out of the API and points at the sitemap', async () => {
    const response = await fetch(`${baseUrl}/robots.txt`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
    const text = await response.text();
    expect(text).toMatch(/^User-agent: \*$/m);
    expect(text).toMatch(/^Disallow: \/api\/$/m);
    expect(text).toContain(`Sitemap: ${baseUrl}/sitemap.xml`);
  });

  it('the sitemap lists every category, subcategory, brand and active product, and the static pages', async () => {
    const index = await fetch(`${baseUrl}/sitemap.xml`);
    expect(index.status).toBe(200);
    expect(index.headers.get('content-type')).toMatch(/^application\/xml/);
    const indexXml = await index.text();
    expect(indexXml).toContain('<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
    const files = locs(indexXml);
    expect(files).toContain(`${baseUrl}/sitemap/pages.xml`);
    expect(files).toContain(`${baseUrl}/sitemap/products-1.xml`);

    const urls = new Set<string>();
    for (const file of files) {
      const response = await fetch(file);
      expect(response.status, file).toBe(200);
      const xml = await response.text();
      expect(xml).toContain('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
      const fileUrls = locs(xml);
      expect(fileUrls.length).toBeLessThanOrEqual(50_000);
      for (const url of fileUrls) urls.add(url);
    }
    const paths = [...urls].map((url) => {
      expect(url.startsWith(`${baseUrl}/`)).toBe(true);
      return url.slice(baseUrl.length);
    });

    const [categories, subcategories, brands, products] = await Promise.all([
      getJson<Category[]>('/api/categories'),
      getJson<Subcategory[]>('/api/subcategories'),
      getJson<Brand[]>('/api/brands'),
      getJson<ProductPage>('/api/products?limit=1000&sort=newest'),
    ]);
    const count = (pattern: RegExp) => paths.filter((path) => pattern.test(path)).length;
    expect(count(/^\/category\/\d+$/)).toBe(categories.length);
    expect(count(/^\/category\/\d+\/subcategory\/\d+$/)).toBe(subcategories.length);
    expect(count(/^\/brand\/\d+$/)).toBe(brands.length);
    expect(count(/^\/product\/\d+$/)).toBe(products.totalCount);
    for (const category of categories) expect(paths).toContain(`/category/${category.id}`);
    for (const subcategory of subcategories) {
      expect(paths).toContain(`/category/${subcategory.categoryId}/subcategory/${subcategory.id}`);
    }
    for (const brand of brands) expect(paths).toContain(`/brand/${brand.id}`);
    for (const product of products.items) expect(paths).toContain(`/product/${product.id}`);
    for (const path of ['/', '/products', '/store-locations', '/shipping-info', '/contact'])
      expect(paths).toContain(path);
    // Each URL once.
    expect(paths.length).toBe(new Set(paths).size);
  });

  it('answers sitemap names it does not serve with 404', async () => {
    for (const path of ['/sitemap/products-99.xml', '/sitemap/products-0.xml', '/sitemap/other.xml']) {
      expect((await fetch(`${baseUrl}${path}`)).status, path).toBe(404);
    }
  });

  it('product pages carry a title, description, canonical URL and Open Graph tags', async () => {
    const { items } = await getJson<ProductPage>('/api/products?limit=1&sort=price_desc');
    const product = items[0]!;
    const html = await (
      await fetch(
        `${baseUrl}/category/${product.categoryId}/subcategory/${product.subcategoryId}/product/${product.id}`,
      )
    ).text();
    const head = html.slice(0, html.indexOf('</head>'));
    const meta = (attribute: string, name: string) =>
      new RegExp(`<meta ${attribute}="${name}" content="([^"]*)"`).exec(head)?.[1];
    expect(head).toMatch(/<title>[^<]+\| Harbour Tools<\/title>/);
    const description = meta('name', 'description');
    expect(description?.length).toBeGreaterThan(50);
    expect(description!.length).toBeLessThanOrEqual(160);
    const canonical = `${baseUrl}/product/${product.id}`;
    expect(head).toContain(`<link rel="canonical" href="${canonical}"/>`);
    expect(meta('property', 'og:url')).toBe(canonical);
    expect(meta('property', 'og:type')).toBe('product');
    expect(meta('property', 'og:title')).toContain('Harbour Tools');
    expect(meta('property', 'og:description')).toBe(description);
    const image = meta('property', 'og:image');
    expect(image).toMatch(new RegExp(`^${baseUrl}/media/`));
    expect((await fetch(image!)).status).toBe(200);
  });
});
