import type { Product, ProductPage } from './catalog.ts';

/**
 * What a product card shows (picture, brand, name, rating, price, stock), puts in the cart,
 * and what its link and badges need. Pages send these rather than whole products, so a
 * listing's HTML does not carry every product's description and specifications twice (once
 * rendered nowhere, once in the loader data). Zod-free, so the browser can import it.
 */
export type ProductCardItem = Pick<
  Product,
  | 'id'
  | 'name'
  | 'sku'
  | 'brandName'
  | 'price'
  | 'discountPrice'
  | 'imageUrl'
  | 'imageSrcset'
  | 'stockQuantity'
  | 'averageRating'
  | 'reviewCount'
  | 'categoryId'
  | 'subcategoryId'
  | 'pointsCost'
>;

/** A page of a product listing, with card-sized items. */
export type ProductCardPage = Omit<ProductPage, 'items'> & { items: ProductCardItem[] };

export function toProductCardItem(product: Product): ProductCardItem {
  const { id, name, sku, brandName, price, discountPrice, imageUrl, imageSrcset, stockQuantity } = product;
  const { averageRating, reviewCount, categoryId, subcategoryId, pointsCost } = product;
  return {
    id,
    name,
    sku,
    brandName,
    price,
    discountPrice,
    imageUrl,
    ...(imageSrcset === undefined ? {} : { imageSrcset }),
    stockQuantity,
    averageRating,
    reviewCount,
    categoryId,
    subcategoryId,
    pointsCost,
  };
}

export function toProductCardPage(page: ProductPage): ProductCardPage {
  return { ...page, items: page.items.map(toProductCardItem) };
}
