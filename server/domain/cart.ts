import { eq, inArray, sql } from 'drizzle-orm';
import { centsToDollars, dollarsToCents, formatDollars } from '../../contracts/money.ts';
import type { CartLineInput, CartQuote } from '../../contracts/orders.ts';
import { lineTotalCents, priceCart } from '../../contracts/pricing.ts';
import type { Database } from '../../db/client.ts';
import { cartItems, products, productVariants } from '../../db/schema.ts';
import { combineLines } from './stock.ts';

/**
 * Today's prices and stock for cart lines, with one problem per line ('Price changed from
 * $X to $Y', 'Only N left', 'No longer available'), so the cart and checkout show what
 * changed since the item was added instead of hiding it. Totals count what can be sold now.
 */
export async function quoteCart(db: Database, lines: readonly CartLineInput[]): Promise<CartQuote> {
  const ids = [...new Set(lines.map((line) => line.productId))];
  const variantIds = [...new Set(lines.flatMap((line) => (line.variantId ? [line.variantId] : [])))];
  const [rows, variantRows] = await Promise.all([
    ids.length
      ? db
          .select({
            id: products.id,
            name: products.name,
            sku: products.sku,
            priceCents: products.priceCents,
            unitPriceCents: products.effectivePriceCents,
            stock: products.stockQuantity,
            active: products.isActive,
            // Spelled out with an alias: in a one-table select drizzle leaves columns unqualified, so
            // `product_id = id` inside the subquery compared the image's own id, not the product's.
            imageUrl: sql<
              string | null
            >`(select pi.image_url from product_images pi where pi.product_id = "products"."id" order by pi.is_primary desc, pi.sort_order limit 1)`,
          })
          .from(products)
          .where(inArray(products.id, ids))
      : [],
    variantIds.length
      ? db
          .select({
            id: productVariants.id,
            productId: productVariants.productId,
            name: productVariants.name,
            sku: productVariants.sku,
            priceCents: productVariants.priceCents,
            stock: productVariants.stockQuantity,
          })
          .from(productVariants)
          .where(inArray(productVariants.id, variantIds))
      : [],
  ]);
  const byId = new Map(rows.map((row) => [row.id, row]));
  const variantsById = new Map(variantRows.map((row) => [row.id, row]));
  const quoted: CartQuote['lines'] = [];
  for (const line of lines) {
    const product = byId.get(line.productId);
    if (!product) {
      // A product that does not exist (an old or hand-made cart) is a line the shop cannot sell, said
      // so like a retired one, rather than left out: checkout then holds back Place Order for it.
      quoted.push({
        productId: line.productId,
        variantId: line.variantId ?? null,
        variantName: null,
        name: `Product ${line.productId}`,
        sku: '',
        imageUrl: null,
        unitPrice: 0,
        originalPrice: 0,
        quantity: line.quantity,
        availableQuantity: 0,
        stockQuantity: 0,
        lineTotal: 0,
        problem: { kind: 'unavailable', message: 'No longer available' },
      });
      continue;
    }
    const variant = line.variantId ? variantsById.get(line.variantId) : undefined;
    // A variant that no longer belongs to the product is a line the shop cannot sell.
    const variantGone = line.variantId !== null && line.variantId !== undefined && variant?.productId !== product.id;
    const stock = variantGone ? 0 : variant ? variant.stock : product.stock;
    const unitPriceCents = variant?.priceCents ?? product.unitPriceCents;
    const regularCents = variant?.priceCents ?? product.priceCents;
    const sellable = product.active && !variantGone ? Math.min(line.quantity, stock) : 0;
    const unitPrice = centsToDollars(unitPriceCents);
    let problem: CartQuote['lines'][number]['problem'] = null;
    if (sellable === 0) problem = { kind: 'unavailable', message: 'No longer available' };
    else if (sellable < line.quantity) {
      problem = { kind: 'low_stock', message: `Only ${stock} left`, available: stock };
    } else if (line.addedPrice !== undefined && dollarsToCents(line.addedPrice) !== unitPriceCents) {
      problem = {
        kind: 'price_changed',
        message: `Price changed from ${formatDollars(line.addedPrice)} to ${formatDollars(unitPrice)}`,
        from: line.addedPrice,
        to: unitPrice,
      };
    }
    quoted.push({
      productId: product.id,
      variantId: variant && !variantGone ? variant.id : (line.variantId ?? null),
      variantName: variant?.name ?? null,
      name: product.name,
      sku: variant?.sku ?? product.sku,
      imageUrl: product.imageUrl,
      unitPrice,
      originalPrice: centsToDollars(regularCents),
      quantity: line.quantity,
      availableQuantity: sellable,
      stockQuantity: product.active && !variantGone ? stock : 0,
      lineTotal: centsToDollars(lineTotalCents({ unitPriceCents, quantity: sellable })),
      problem,
    });
  }
  const totals = priceCart(
    quoted.map((line) => ({ unitPriceCents: dollarsToCents(line.unitPrice), quantity: line.availableQuantity })),
  );
  return {
    lines: quoted,
    subtotal: centsToDollars(totals.subtotalCents),
    taxAmount: centsToDollars(totals.gstCents),
    total: centsToDollars(totals.totalCents),
    totalQuantity: quoted.reduce((sum, line) => sum + line.availableQuantity, 0),
  };
}

/** A saved cart line's identity: the product and the chosen variant, if any. */
function lineKey(line: { productId: number; variantId?: number | null }): string {
  return `${line.productId}:${line.variantId ?? 0}`;
}

/** A signed-in shopper's saved cart, in the order the lines were added. */
export async function getSavedCart(db: Database, userId: number): Promise<CartLineInput[]> {
  const rows = await db
    .select({
      productId: cartItems.productId,
      variantId: cartItems.variantId,
      quantity: cartItems.quantity,
      addedPriceCents: cartItems.addedPriceCents,
    })
    .from(cartItems)
    .where(eq(cartItems.userId, userId))
    .orderBy(cartItems.updatedAt, cartItems.productId);
  return rows.map((row) => ({
    productId: row.productId,
    variantId: row.variantId,
    quantity: row.quantity,
    addedPrice: centsToDollars(row.addedPriceCents),
  }));
}

/**
 * Replaces the saved cart with these lines (what the browser holds), one line per product
 * and variant. Lines the shop cannot sell at all (gone, hidden, no stock) are dropped; a
 * line's "added at" price is kept from the line, else today's.
 */
export async function saveCart(
  db: Database,
  userId: number,
  lines: readonly CartLineInput[],
): Promise<CartLineInput[]> {
  const combined = new Map<string, CartLineInput>();
  for (const line of lines) {
    const existing = combined.get(lineKey(line));
    combined.set(lineKey(line), existing ? { ...existing, quantity: existing.quantity + line.quantity } : { ...line });
  }
  const quote = await quoteCart(db, [...combined.values()]);
  const sellable = new Map(quote.lines.filter((line) => line.stockQuantity > 0).map((line) => [lineKey(line), line]));
  const addedAt = Date.now();
  await db.transaction(async (tx) => {
    await tx.delete(cartItems).where(eq(cartItems.userId, userId));
    const values = [...combined.values()].flatMap((line, index) => {
      const quoted = sellable.get(lineKey(line));
      if (!quoted) return [];
      return [
        {
          userId,
          productId: line.productId,
          variantId: line.variantId ?? null,
          quantity: Math.min(line.quantity, 999),
          addedPriceCents: dollarsToCents(line.addedPrice ?? quoted.unitPrice),
          // One millisecond apart, so the lines read back in the order they were added.
          updatedAt: new Date(addedAt + index),
        },
      ];
    });
    if (values.length) await tx.insert(cartItems).values(values);
  });
  return getSavedCart(db, userId);
}

/**
 * Adds the browser's signed-out cart to the saved one at sign-in: quantities added up and
 * bounded by stock (spec §4: a cart line never exceeds the stock).
 */
export async function mergeCart(
  db: Database,
  userId: number,
  lines: readonly CartLineInput[],
): Promise<CartLineInput[]> {
  const saved = await getSavedCart(db, userId);
  const merged = new Map(saved.map((line) => [lineKey(line), { ...line }]));
  for (const line of combineLines(lines)) {
    const existing = merged.get(lineKey(line));
    const added = lines.find((candidate) => lineKey(candidate) === lineKey(line))?.addedPrice;
    merged.set(lineKey(line), {
      productId: line.productId,
      variantId: line.variantId ?? null,
      quantity: (existing?.quantity ?? 0) + line.quantity,
      addedPrice: existing?.addedPrice ?? added,
    });
  }
  const quote = await quoteCart(db, [...merged.values()]);
  const stockByKey = new Map(quote.lines.map((line) => [lineKey(line), line.stockQuantity]));
  const bounded = [...merged.values()].flatMap((line) => {
    const stock = stockByKey.get(lineKey(line)) ?? 0;
    return stock > 0 ? [{ ...line, quantity: Math.min(line.quantity, stock) }] : [];
  });
  return saveCart(db, userId, bounded);
}

/** Empties the saved cart (after an order is placed). */
export async function clearSavedCart(
  db: Database | Parameters<Parameters<Database['transaction']>[0]>[0],
  userId: number,
): Promise<void> {
  await db.delete(cartItems).where(eq(cartItems.userId, userId));
}
