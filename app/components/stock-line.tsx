import { stockStatusOf } from '../../contracts/stock.ts';

/** "In stock", "Only N left" or "Out of stock", in the colours of the visual brief. */
export function StockLine({ stock }: { stock: number }) {
  const status = stockStatusOf(stock);
  if (status === 'out_of_stock') return <p className="text-xs font-semibold text-stock-out">Out of stock</p>;
  if (status === 'low_stock') return <p className="text-xs font-semibold text-stock-low">Only {stock} left</p>;
  return <p className="text-xs font-semibold text-stock-in">In stock</p>;
}
