import { renderSitemapIndex } from '../../server/domain/sitemap.ts';
import { publicOrigin } from '../lib/seo.ts';
import { shopContext } from '../lib/shop-context.ts';
import type { Route } from './+types/sitemap-index';

/**
 * `/sitemap.xml`: a sitemap index naming the pages sitemap and one sitemap per
 * 50,000-id range of products, each with the time its newest entry changed.
 */
export async function loader({ context }: Route.LoaderArgs) {
  const { shop, sitemap } = context.get(shopContext);
  const xml = renderSitemapIndex(publicOrigin(shop), await sitemap.listFiles());
  return new Response(xml, {
    headers: { 'Content-Type': 'application/xml; charset=utf-8', 'Cache-Control': 'public, max-age=3600' },
  });
}
