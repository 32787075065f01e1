/**
 * Cache-Control of a catalogue page that is the same for every shopper rendered for nobody:
 * the server keeps it rendered (server/page-cache.ts) and serves that copy to everyone,
 * signed-in shoppers included (their page asks for its account part); browsers and CDNs may
 * keep it too, asking each time with its ETag (a 304 costs the server almost nothing). A copy
 * rendered for a signed-in shopper is never public: app/entry.server.tsx makes it `private, no-store`.
 */
export const PUBLIC_PAGE_CACHE_CONTROL = 'public, max-age=0, must-revalidate';

/** A route module's `headers` export for pages that any signed-out shopper sees alike. */
export function publicPageHeaders(): Record<string, string> {
  return { 'Cache-Control': PUBLIC_PAGE_CACHE_CONTROL };
}
