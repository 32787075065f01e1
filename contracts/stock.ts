/*
 * How stock reads to a shopper, shared by the search API and every page that shows a
 * stock line. Free of zod so components can import it without bringing the schemas along.
 */

/** At or below this many units a product reads "Only N left". */
export const LOW_STOCK_THRESHOLD = 5;

export const STOCK_STATUSES = ['in_stock', 'low_stock', 'out_of_stock'] as const;
export type StockStatus = (typeof STOCK_STATUSES)[number];

export function stockStatusOf(stockQuantity: number): StockStatus {
  if (stockQuantity <= 0) return 'out_of_stock';
  return stockQuantity <= LOW_STOCK_THRESHOLD ? 'low_stock' : 'in_stock';
}

/** Whether two stock levels read the same on a stock line ("In stock", "Only 3 left", "Out of stock"). */
export function sameStockLine(a: number, b: number): boolean {
  const status = stockStatusOf(a);
  return status === stockStatusOf(b) && (status !== 'low_stock' || a === b);
}
