import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Product } from '../../contracts/catalog.ts';
import type { Database } from '../../db/client.ts';
import { products, wishlistItems } from '../../db/schema.ts';
import { listProductsByIds } from './catalog.ts';
import { NotFoundError } from './errors.ts';

/** The ids on a shopper's wishlist, oldest first. */
export async function listWishlistIds(db: Database, userId: number): Promise<number[]> {
  const rows = await db
    .select({ productId: wishlistItems.productId })
    .from(wishlistItems)
    .where(eq(wishlistItems.userId, userId))
    .orderBy(asc(wishlistItems.createdAt), asc(wishlistItems.productId));
  return rows.map((row) => row.productId);
}

export async function listWishlist(db: Database, userId: number): Promise<Product[]> {
  return listProductsByIds(db, await listWishlistIds(db, userId));
}

/** Adds products to the wishlist (already there: no change); unknown products are 404 when added alone. */
export async function addToWishlist(db: Database, userId: number, productIds: readonly number[]): Promise<void> {
  if (productIds.length === 0) return;
  const known = await db
    .select({ id: products.id })
    .from(products)
    .where(inArray(products.id, [...productIds]));
  if (known.length === 0) throw new NotFoundError('Product not found');
  await db
    .insert(wishlistItems)
    .values(known.map(({ id }) => ({ userId, productId: id })))
    .onConflictDoNothing();
}

export async function removeFromWishlist(db: Database, userId: number, productId: number): Promise<void> {
  await db.delete(wishlistItems).where(and(eq(wishlistItems.userId, userId), eq(wishlistItems.productId, productId)));
}
