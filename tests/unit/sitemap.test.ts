import { describe, expect, it } from 'vitest';
import {
  parseSitemapFile,
  renderRobotsTxt,
  renderSitemapIndex,
  renderUrlSet,
  SITEMAP_URL_LIMIT,
} from '../../server/domain/sitemap.ts';

describe('sitemap rendering', () => {
  it('renders a urlset with escaped locations and lastmod', () => {
    const xml = renderUrlSet('https://shop.example', [
      { path: '/product/1', lastModified: '2026-01-01T00:00:00.000Z' },
      { path: '/search?a=1&b=<2>' },
    ]);
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
    expect(xml).toContain('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
    expect(xml).toContain(
      '<url><loc>https://shop.example/product/1</loc><lastmod>2026-01-01T00:00:00.000Z</lastmod></url>',
    );
    expect(xml).toContain('<url><loc>https://shop.example/search?a=1&amp;b=&lt;2&gt;</loc></url>');
  });

  it('renders a sitemap index', () => {
    const xml = renderSitemapIndex('https://shop.example', [{ path: '/sitemap/pages.xml' }]);
    expect(xml).toContain('<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
    expect(xml).toContain('<sitemap><loc>https://shop.example/sitemap/pages.xml</loc></sitemap>');
  });

  it('accepts only the file names it serves', () => {
    expect(parseSitemapFile('pages.xml')).toEqual({ kind: 'pages' });
    expect(parseSitemapFile('products-1.xml')).toEqual({ kind: 'products', chunk: 1 });
    expect(parseSitemapFile('products-12.xml')).toEqual({ kind: 'products', chunk: 12 });
    for (const bad of ['products-0.xml', 'products-01.xml', 'products-x.xml', 'products-1.txt', 'other.xml', '']) {
      expect(parseSitemapFile(bad)).toBeNull();
    }
  });

  it('keeps each file within the protocol limit', () => {
    expect(SITEMAP_URL_LIMIT).toBeLessThanOrEqual(50_000);
  });

  it('points robots.txt at the sitemap and keeps crawlers out of the API', () => {
    const text = renderRobotsTxt('https://shop.example');
    expect(text).toMatch(/^User-agent: \*$/m);
    expect(text).toMatch(/^Disallow: \/api\/$/m);
    expect(text).toMatch(/^Sitemap: https:\/\/shop\.example\/sitemap\.xml$/m);
  });
});
