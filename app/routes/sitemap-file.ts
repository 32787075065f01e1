import { parseSitemapFile, renderUrlSet } from '../../server/domain/sitemap.ts';
import { publicOrigin } from '../lib/seo.ts';
import { shopContext } from '../lib/shop-context.ts';
import type { Route } from './+types/sitemap-file';

const notFound = () => new Response('Sitemap not found\n', { status: 404, headers: { 'Content-Type': 'text/plain' } });

/**
 * `/sitemap/pages.xml` (static pages, categories, subcategories, brands) and
 * `/sitemap/products-N.xml` (active products with ids in the N-th 50,000 range).
 * Any other name, or a range without products, is a 404.
 */
export async function loader({ params, context }: Route.LoaderArgs) {
  const file = parseSitemapFile(params.file);
  if (!file) return notFound();
  const { shop, sitemap } = context.get(shopContext);
  const entries = file.kind === 'pages' ? await sitemap.listPages() : await sitemap.listProducts(file.chunk);
  if (!entries) return notFound();
  return new Response(renderUrlSet(publicOrigin(shop), entries), {
    headers: { 'Content-Type': 'application/xml; charset=utf-8', 'Cache-Control': 'public, max-age=3600' },
  });
}
