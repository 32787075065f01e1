export const LOW_STOCK_THRESHOLD = 5;

/** "In stock", "Only N left" or "Out of stock", in the colours of the visual brief. */
export function StockLine({ stock }: { stock: number }) {
  if (stock <= 0) return <p className="text-xs font-semibold text-stock-out">Out of stock</p>;
  if (stock <= LOW_STOCK_THRESHOLD) return <p className="text-xs font-semibold text-stock-low">Only {stock} left</p>;
  return <p className="text-xs font-semibold text-stock-in">In stock</p>;
}
