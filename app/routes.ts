import { index, type RouteConfig, route } from '@react-router/dev/routes';

/** The route table of spec §2; later issues add the remaining screens here. */
export default [
  index('routes/home.tsx'),
  route('category/:categoryId', 'routes/category.tsx'),
  route('category/:categoryId/subcategory/:subcategoryId', 'routes/subcategory.tsx'),
  route('subcategory/:id', 'routes/subcategory-redirect.tsx'),
  route('brand/:id', 'routes/brand.tsx'),
  route('shop-by-brand', 'routes/shop-by-brand.tsx'),
  route('products', 'routes/products.tsx'),
  // The same listing under the name the old site's links use (spec-decisions "Catalogue and pages").
  route('shop', 'routes/products.tsx', { id: 'routes/shop' }),
  route('clearance', 'routes/clearance.tsx'),
  route('new-arrivals', 'routes/new-arrivals.tsx'),
  route('deals', 'routes/deals.tsx'),
  route('redemption', 'routes/redemption.tsx'),
  route('featured', 'routes/featured.tsx'),
  route('product/:id', 'routes/product.tsx'),
  // Listing pages link here; same page, with /product/:id as its canonical URL.
  route('category/:categoryId/subcategory/:subcategoryId/product/:id', 'routes/product.tsx', {
    id: 'routes/product-in-subcategory',
  }),
  route('sitemap.xml', 'routes/sitemap-index.ts'),
  route('sitemap/:file', 'routes/sitemap-file.ts'),
  route('robots.txt', 'routes/robots.ts'),
  route('shipping-info', 'routes/shipping-info.tsx'),
  route('contact', 'routes/contact.tsx'),
  route('create-your-kit', 'routes/create-your-kit.tsx'),
  route('store-locations', 'routes/store-locations.tsx'),
  route('search', 'routes/search.tsx'),
  route('*', 'routes/not-found.tsx'),
] satisfies RouteConfig;
