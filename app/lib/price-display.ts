import { centsToDollars, dollarsToCents, formatDollars } from '../../contracts/money.ts';
import { displayPrice } from '../../contracts/pricing.ts';

/*
 * GST-inclusive figures for what a shopper reads (spec-decisions "Money"): the API gives
 * ex-GST dollars, `displayPrice` turns them into the headline price. Used by the Price
 * component and by texts (meta descriptions, banners, JSON-LD) that quote a price.
 */

/** An ex-GST price in dollars → its GST-inclusive price in dollars (ex GST × 1.1, rounded to the cent). */
export function incGstDollars(exGstDollars: number): number {
  return centsToDollars(displayPrice(dollarsToCents(exGstDollars)).incGstCents);
}

/** An ex-GST price in dollars → "$97.90", the GST-inclusive figure for texts ("now $97.90"). */
export function formatIncGst(exGstDollars: number): string {
  return formatDollars(incGstDollars(exGstDollars));
}

/** What a discount saves, GST-inclusive: the shown Was less the shown Now, so the three figures add up. */
export function savingIncGst(wasExGstDollars: number, nowExGstDollars: number): number {
  return centsToDollars(
    Math.max(0, dollarsToCents(incGstDollars(wasExGstDollars)) - dollarsToCents(incGstDollars(nowExGstDollars))),
  );
}
