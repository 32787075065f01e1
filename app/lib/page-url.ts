/**
 * The address the shopper sees. A client-side navigation reaches loaders and actions as
 * React Router's data request (`/products.data?…&_routes=…`); a redirect built from that
 * sends the browser to the raw data URL, or carries `_routes` into the address bar.
 */
export function pageUrl(request: Request): URL {
  const url = new URL(request.url);
  if (url.pathname.endsWith('.data')) url.pathname = url.pathname.slice(0, -'.data'.length);
  url.searchParams.delete('_routes');
  url.searchParams.delete('index');
  return url;
}
