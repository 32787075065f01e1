/** Pure rules of the product page (spec §4 "Product page", §5), kept apart from the components so they are unit-tested. */
import type { Product } from '../../contracts/catalog.ts';
import { centsToDollars, dollarsToCents, formatDollars } from '../../contracts/money.ts';
import { RETURN_WINDOW_DAYS } from '../../contracts/points.ts';

/** Paragraphs of the description shown before 'Read More'. */
export const DESCRIPTION_PREVIEW_PARAGRAPHS = 1;

/** The one URL search engines should index for a product, whichever path the shopper came by. */
export function canonicalProductPath(id: number): string {
  return `/product/${id}`;
}

/** Units a shopper can still add: stock minus what the cart already holds, never negative. */
export function availableStock(stockQuantity: number, inCart: number): number {
  return Math.max(0, stockQuantity - inCart);
}

/**
 * The quantity selector's value kept within 1..max (spec §5). Anything that is not a
 * number becomes 1; fractions are cut; with nothing available the selector shows 1, disabled.
 */
export function clampQuantity(value: number, max: number): number {
  if (!Number.isFinite(value)) return 1;
  const whole = Math.trunc(value);
  if (max < 1) return 1;
  return Math.min(Math.max(whole, 1), max);
}

/** How much a discount saves, in dollars (0 when there is none). */
export function savingsOf(product: Pick<Product, 'price' | 'discountPrice'>): number {
  if (product.discountPrice === null) return 0;
  return centsToDollars(Math.max(0, dollarsToCents(product.price) - dollarsToCents(product.discountPrice)));
}

/** "$100" for whole amounts, "$99.50" otherwise: how promos quote thresholds. */
export function formatShortDollars(dollars: number): string {
  const text = formatDollars(dollars);
  return text.endsWith('.00') ? text.slice(0, -3) : text;
}

/** The description as paragraphs (spec §3: newline-separated). */
export function descriptionParagraphs(description: string): string[] {
  return description
    .split(/\r?\n/)
    .map((paragraph) => paragraph.trim())
    .filter((paragraph) => paragraph !== '');
}

/** "3 years" → "3-Year Warranty", "12 months" → "12-Month Warranty", "Lifetime" → "Lifetime Warranty". */
export function warrantyTitle(warrantyPeriod: string): string {
  const period = warrantyPeriod.trim();
  const match = /^(\d+)\s*-?\s*(year|month|day)s?$/i.exec(period);
  if (match) {
    const unit = match[2]!.toLowerCase();
    return `${match[1]}-${unit[0]!.toUpperCase()}${unit.slice(1)} Warranty`;
  }
  const label = period.replace(/\s*warranty$/i, '');
  return `${label[0]!.toUpperCase()}${label.slice(1)} Warranty`;
}

/**
 * The product page's guarantee card: the product's own warranty as the owner entered it;
 * without one, the shop's returns promise (issue 22: never a warranty nobody gave).
 */
export function guaranteeCard(warrantyPeriod: string | null): { title: string; detail: string } {
  const period = warrantyPeriod?.trim();
  if (!period) return { title: `${RETURN_WINDOW_DAYS}-Day Returns`, detail: 'From delivery or collection' };
  return { title: warrantyTitle(period), detail: 'Quality guaranteed' };
}

/** "2.35" kg → "2.35 kg", small weights in grams so nothing shows as "0 kg". */
export function formatWeight(weightKg: number): string {
  if (weightKg < 1) return `${Math.round(weightKg * 1000)} g`;
  return `${Number(weightKg.toFixed(2))} kg`;
}

/**
 * Rows of the Technical Specifications table: the product's own specifications,
 * then the facts every product has (SKU, weight, dimensions, warranty).
 */
export function specificationRows(
  product: Pick<Product, 'specifications' | 'sku' | 'brandName' | 'weightKg' | 'dimensions' | 'warrantyPeriod'>,
): [label: string, value: string][] {
  const rows: [string, string][] = Object.entries(product.specifications).filter(
    ([label, value]) => label.trim() !== '' && String(value).trim() !== '',
  );
  const has = (label: string) => rows.some(([existing]) => existing.toLowerCase() === label.toLowerCase());
  const extra: [string, string | null][] = [
    ['Brand', product.brandName],
    ['SKU', product.sku],
    ['Weight', product.weightKg === null ? null : formatWeight(product.weightKg)],
    ['Dimensions', product.dimensions],
    ['Warranty', product.warrantyPeriod],
  ];
  for (const [label, value] of extra) {
    // A blank field (the owner's spaces) is no fact: no row, as for null.
    if (value?.trim() && !has(label)) rows.push([label, value.trim()]);
  }
  return rows;
}
