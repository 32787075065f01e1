import { formatDollars } from '../../contracts/money.ts';
import { formatIncGst } from '../lib/price-display.ts';

/*
 * How a shopper sees a product price (spec-decisions "Money", issue 22): the GST-inclusive
 * price is the headline, "inc GST" beside it and the ex-GST price in smaller type. Prices
 * reach the storefront in the API's shape (ex-GST dollars); every figure comes from
 * `displayPrice` (through app/lib/price-display.ts), so every page rounds the same way.
 */

const ALIGN = {
  start: { box: 'items-start', row: '' },
  end: { box: 'items-end text-right', row: 'justify-end' },
  'end-from-sm': { box: 'items-start sm:items-end sm:text-right', row: 'sm:justify-end' },
} as const;

const HEADLINE = {
  /** The product page's buy box. */
  page: 'font-display text-5xl leading-none',
  /** Product cards. */
  card: 'text-2xl tracking-tight',
  /** Small lists: "Frequently Purchased Together", cart lines, option tables. */
  line: 'text-base',
} as const;

const SMALL = {
  page: 'text-sm',
  card: 'text-xs',
  line: 'text-xs',
} as const;

interface PriceProps {
  /** The price as the API gives it: ex-GST dollars. */
  exGst: number;
  size?: keyof typeof HEADLINE;
  /** A sale price headlines in the sale colour. */
  onSale?: boolean;
  /** Right-aligned in a table column; `end-from-sm` from the small breakpoint up (a table that stacks on phones). */
  align?: keyof typeof ALIGN;
  /** Read before the figure by screen readers only, e.g. "Now". */
  srPrefix?: string;
  testId?: string;
}

/**
 * "$97.90 inc GST" as the headline and "$89.00 ex GST" under it, smaller (never more
 * prominent than the total price, as the single-price rule wants).
 */
export function Price({ exGst, size = 'card', onSale = false, align = 'start', srPrefix, testId }: PriceProps) {
  return (
    <span className={`tabular inline-flex flex-col ${ALIGN[align].box}`} data-testid={testId}>
      {/* On a narrow card "inc GST" may drop under a long figure rather than spill out. */}
      <span className={`flex flex-wrap items-baseline gap-x-1 ${ALIGN[align].row}`}>
        {srPrefix ? <span className="sr-only">{srPrefix} </span> : null}
        <span className={`${HEADLINE[size]} whitespace-nowrap font-bold ${onSale ? 'text-sale' : 'text-ink'}`}>
          {formatIncGst(exGst)}
        </span>{' '}
        <span className={`${SMALL[size]} whitespace-nowrap font-semibold text-gray-700`}>inc GST</span>
      </span>
      <span className={`${SMALL[size]} ${size === 'page' ? 'mt-1.5' : ''} whitespace-nowrap text-gray-600`}>
        {formatDollars(exGst)} ex GST
      </span>
    </span>
  );
}

/** "Was $109.89" struck through, GST-inclusive like the headline it sits beside. */
export function WasPrice({ exGst, className = 'text-sm' }: { exGst: number; className?: string }) {
  return (
    <span className={`tabular whitespace-nowrap text-gray-600 ${className}`}>
      Was <s>{formatIncGst(exGst)}</s>
    </span>
  );
}
