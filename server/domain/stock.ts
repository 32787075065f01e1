import { and, eq, gte, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { products, productVariants } from '../../db/schema.ts';
import { ConflictError, NotFoundError } from './errors.ts';

export type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];

export interface StockLine {
  productId: number;
  /** A chosen variant: its own stock and (if set) its own price; null or absent for the product itself. */
  variantId?: number | null;
  quantity: number;
}

export interface ReservedLine extends StockLine {
  variantName: string | null;
  name: string;
  sku: string;
  unitPriceCents: number;
  imageUrl: string | null;
}

/** One line per product (quantities added up), in product-id order so concurrent orders lock rows in the same order. */
export function combineLines(lines: readonly StockLine[]): StockLine[] {
  const totals = new Map<string, StockLine>();
  for (const line of lines) {
    const key = `${line.productId}:${line.variantId ?? 0}`;
    const existing = totals.get(key);
    totals.set(key, {
      productId: line.productId,
      variantId: line.variantId ?? null,
      quantity: (existing?.quantity ?? 0) + line.quantity,
    });
  }
  return [...totals.values()].sort((a, b) => a.productId - b.productId || (a.variantId ?? 0) - (b.variantId ?? 0));
}

/**
 * Takes stock for every line inside the caller's transaction, atomically: each product is a
 * conditional `UPDATE … SET stock = stock - n WHERE stock >= n`, so two shoppers can never
 * buy the same last unit. A line that cannot be had throws a 409 naming the product (404 for a
 * product or variant that does not exist), and the caller's transaction rolls back whatever was taken before it. Returns each line with
 * the price the shopper pays now (from the database, never from the client).
 */
export async function reserveStock(tx: Transaction, lines: readonly StockLine[]): Promise<ReservedLine[]> {
  const reserved: ReservedLine[] = [];
  for (const line of combineLines(lines)) {
    if (line.variantId) {
      reserved.push(await reserveVariant(tx, line as StockLine & { variantId: number }));
      continue;
    }
    const [row] = await tx
      .update(products)
      .set({ stockQuantity: sql`${products.stockQuantity} - ${line.quantity}` })
      .where(
        and(eq(products.id, line.productId), eq(products.isActive, true), gte(products.stockQuantity, line.quantity)),
      )
      .returning({
        name: products.name,
        sku: products.sku,
        unitPriceCents: products.effectivePriceCents,
        // Spelled out with an alias: in an UPDATE's RETURNING drizzle leaves columns unqualified, so
        // `product_id = id` inside the subquery compared the image's own id, not the product's.
        imageUrl: sql<
          string | null
        >`(select pi.image_url from product_images pi where pi.product_id = "products"."id" order by pi.is_primary desc, pi.sort_order limit 1)`,
      });
    if (!row) throw await shortageError(tx, line);
    reserved.push({ ...line, ...row, variantName: null });
  }
  return reserved;
}

/** A variant line: the variant's own stock, its price (else the product's), the product's name and picture. */
async function reserveVariant(tx: Transaction, line: StockLine & { variantId: number }): Promise<ReservedLine> {
  const [row] = await tx
    .update(productVariants)
    .set({ stockQuantity: sql`${productVariants.stockQuantity} - ${line.quantity}` })
    .where(
      and(
        eq(productVariants.id, line.variantId),
        eq(productVariants.productId, line.productId),
        gte(productVariants.stockQuantity, line.quantity),
        sql`exists (select 1 from products p where p.id = ${line.productId} and p.is_active)`,
      ),
    )
    .returning({
      variantName: productVariants.name,
      sku: productVariants.sku,
      unitPriceCents: sql<number>`coalesce("product_variants"."price_cents", (select p.effective_price_cents from products p where p.id = "product_variants"."product_id"))`,
      name: sql<string>`(select p.name from products p where p.id = "product_variants"."product_id")`,
      imageUrl: sql<
        string | null
      >`(select pi.image_url from product_images pi where pi.product_id = "product_variants"."product_id" order by pi.is_primary desc, pi.sort_order limit 1)`,
    });
  if (!row) {
    const [variant] = await tx
      .select({
        name: productVariants.name,
        stock: productVariants.stockQuantity,
        product: products.name,
        active: products.isActive,
      })
      .from(productVariants)
      .innerJoin(products, eq(products.id, productVariants.productId))
      .where(and(eq(productVariants.id, line.variantId), eq(productVariants.productId, line.productId)));
    if (!variant) {
      const message = `Variant ${line.variantId} of product ${line.productId} does not exist`;
      throw new NotFoundError(message, { orderItems: [message] });
    }
    const message =
      !variant.active || variant.stock === 0
        ? `${variant.product} (${variant.name}) is no longer available`
        : `Only ${variant.stock} left of ${variant.product} (${variant.name})`;
    throw new ConflictError(message, { orderItems: [message] });
  }
  return { ...line, ...row, unitPriceCents: Number(row.unitPriceCents) };
}

/** What is missing is 404; what cannot be had (no longer sold, short) is 409 (spec-decisions "Errors"). */
async function shortageError(tx: Transaction, line: StockLine): Promise<ConflictError | NotFoundError> {
  const [product] = await tx
    .select({ name: products.name, stock: products.stockQuantity, active: products.isActive })
    .from(products)
    .where(eq(products.id, line.productId));
  if (!product) {
    const message = `Product ${line.productId} does not exist`;
    return new NotFoundError(message, { orderItems: [message] });
  }
  const message =
    !product.active || product.stock === 0
      ? `${product.name} is no longer available`
      : `Only ${product.stock} left of ${product.name}`;
  return new ConflictError(message, { orderItems: [message] });
}

/** Puts stock back (a cancelled or returned order), in the caller's transaction. */
export async function releaseStock(tx: Transaction, lines: readonly StockLine[]): Promise<void> {
  for (const line of combineLines(lines)) {
    if (line.variantId) {
      await tx
        .update(productVariants)
        .set({ stockQuantity: sql`${productVariants.stockQuantity} + ${line.quantity}` })
        .where(eq(productVariants.id, line.variantId));
      continue;
    }
    await tx
      .update(products)
      .set({ stockQuantity: sql`${products.stockQuantity} + ${line.quantity}` })
      .where(eq(products.id, line.productId));
  }
}
