import type { Database } from '../db/client.ts';
import type { Config } from './config.ts';
import {
  countProductsByBrand,
  getBrand,
  getCategory,
  getFullProduct,
  getProduct,
  getSubcategory,
  listBrands,
  listCategories,
  listProducts,
  listSubcategories,
} from './domain/catalog.ts';
import { createContactService } from './domain/contact.ts';
import { createKitLaunch } from './domain/kit-launch.ts';
import { createReadCache } from './domain/read-cache.ts';
import { autocomplete, searchCatalogue } from './domain/search.ts';
import { describeShop } from './domain/shop.ts';
import { listPageEntries, listProductEntries, listSitemapFiles } from './domain/sitemap.ts';

/**
 * The domain functions bound to one database, handed to route loaders through
 * React Router's context: pages and /api call the same code in-process.
 */
export function createShopServices(db: Database, config: Config) {
  const catalogCache = createReadCache({ ttlMs: config.catalogCacheSeconds * 1000, maxEntries: 5000 });
  // Catalogue reads are pure functions of their arguments, so the arguments are the key.
  const cached = <T>(name: string, args: unknown, load: () => Promise<T>) =>
    catalogCache.read(`${name}:${JSON.stringify(args)}`, load);
  return {
    shop: describeShop(config),
    catalog: {
      listCategories: (options: Parameters<typeof listCategories>[1] = {}) =>
        cached('listCategories', options, () => listCategories(db, options)),
      getCategory: (id: number) => cached('getCategory', id, () => getCategory(db, id)),
      listSubcategories: (options: Parameters<typeof listSubcategories>[1] = {}) =>
        cached('listSubcategories', options, () => listSubcategories(db, options)),
      getSubcategory: (id: number) => cached('getSubcategory', id, () => getSubcategory(db, id)),
      listBrands: (options: Parameters<typeof listBrands>[1] = {}) =>
        cached('listBrands', options, () => listBrands(db, options)),
      getBrand: (id: number) => cached('getBrand', id, () => getBrand(db, id)),
      listProducts: (query: Parameters<typeof listProducts>[1]) =>
        cached('listProducts', query, () => listProducts(db, query)),
      countProductsByBrand: (query: Parameters<typeof countProductsByBrand>[1]) =>
        cached('countProductsByBrand', query, () => countProductsByBrand(db, query)),
      getProduct: (id: number) => cached('getProduct', id, () => getProduct(db, id)),
      getFullProduct: (id: number) => cached('getFullProduct', id, () => getFullProduct(db, id)),
      /** Call after any write to the catalogue (products, prices, stock) made by this process. */
      invalidate: () => catalogCache.clear(),
    },
    search: {
      autocomplete: (term: string) => autocomplete(db, term),
      search: (query: Parameters<typeof searchCatalogue>[1]) => searchCatalogue(db, query),
    },
    contact: createContactService(db),
    kitLaunch: createKitLaunch(db, config.shop.kitLaunchDate),
    sitemap: {
      listFiles: () => listSitemapFiles(db),
      listPages: () => listPageEntries(db),
      listProducts: (chunk: number) => listProductEntries(db, chunk),
    },
  };
}

export type ShopServices = ReturnType<typeof createShopServices>;
