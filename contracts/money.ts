/** Money is integer cents everywhere inside the shop; these helpers are the only way in and out. */

/** Cents → dollars as a number with two decimals, the API's money shape. */
export function centsToDollars(cents: number): number {
  return Math.round(cents) / 100;
}

/** Dollars (as typed by a shopper or sent by an API client) → integer cents. */
export function dollarsToCents(dollars: number): number {
  return Math.round(dollars * 100);
}

const audFormatter = new Intl.NumberFormat('en-AU', {
  style: 'currency',
  currency: 'AUD',
  currencyDisplay: 'narrowSymbol',
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});

/** Dollars → "$1,234.50" for display. */
export function formatDollars(dollars: number): string {
  return audFormatter.format(dollars);
}
