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
import { describeShop } from './domain/shop.ts';

/**
 * The domain functions bound to one database, handed to route loaders through
 * React Router's context: pages and /api call the same code in-process.
 */
export function createShopServices(db: Database, config: Config) {
  return {
    shop: describeShop(config),
    catalog: {
      listCategories: (options?: Parameters<typeof listCategories>[1]) => listCategories(db, options),
      getCategory: (id: number) => getCategory(db, id),
      listSubcategories: (options?: Parameters<typeof listSubcategories>[1]) => listSubcategories(db, options),
      getSubcategory: (id: number) => getSubcategory(db, id),
      listBrands: (options?: Parameters<typeof listBrands>[1]) => listBrands(db, options),
      getBrand: (id: number) => getBrand(db, id),
      listProducts: (query: Parameters<typeof listProducts>[1]) => listProducts(db, query),
      countProductsByBrand: (query: Parameters<typeof countProductsByBrand>[1]) => countProductsByBrand(db, query),
      getProduct: (id: number) => getProduct(db, id),
      getFullProduct: (id: number) => getFullProduct(db, id),
    },
  };
}

export type ShopServices = ReturnType<typeof createShopServices>;
