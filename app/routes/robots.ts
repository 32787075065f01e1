import { renderRobotsTxt } from '../../server/domain/sitemap.ts';
import { publicOrigin } from '../lib/seo.ts';
import { shopContext } from '../lib/shop-context.ts';
import type { Route } from './+types/robots';

/** `/robots.txt`: crawl everything but the API and private pages; points at `/sitemap.xml` on the public origin. */
export function loader({ context }: Route.LoaderArgs) {
  const { shop } = context.get(shopContext);
  return new Response(renderRobotsTxt(publicOrigin(shop)), {
    headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'public, max-age=86400' },
  });
}
