/**
 * The shop's one pricing rule (spec-decisions "Money"), in integer cents, shared by the
 * cart page, checkout, order placement, the order page and the invoice. Pure: no server
 * imports, so the browser shows exactly what the server charges. The server is
 * authoritative: unit prices always come from the database.
 */

/** Shipping is free when the subtotal is over this (not at it: $100.00 pays shipping). */
export const FREE_SHIPPING_THRESHOLD_CENTS = 100_00;
export const FLAT_SHIPPING_CENTS = 10_00;
export const GST_RATE = 0.1;

/** A membership plan that changes shipping (the membership issue): Premium ships free at any subtotal. */
export type ShippingPlan = 'basic' | 'premium' | null;

export interface PricedLine {
  unitPriceCents: number;
  quantity: number;
}

export interface OrderTotals {
  subtotalCents: number;
  /** The goods' GST (the spec's `taxAmount`): 10 % of the subtotal, or 0 for an export. */
  gstCents: number;
  /** The delivery charge, GST-inclusive (spec-decisions "Money"). */
  shippingCents: number;
  /** The delivery charge's GST share: 1/11 of it, rounded to the cent; 0 for an export or free delivery. */
  shippingGstCents: number;
  /** "GST included in the total" on the tax invoice: the goods' GST plus the delivery's. */
  totalGstCents: number;
  totalCents: number;
}

/** How an order is priced beyond its lines: the shopper's plan, how it reaches them and where. */
export interface PricingOptions {
  plan?: ShippingPlan;
  /** Click & collect from the store: no delivery charge. */
  fulfilment?: 'delivery' | 'collect';
  /** The delivery country; goods delivered outside Australia are GST-free exports. Unknown (null) is priced as Australia. */
  country?: string | null;
}

export function lineTotalCents(line: PricedLine): number {
  return line.unitPriceCents * line.quantity;
}

export function subtotalCents(lines: readonly PricedLine[]): number {
  return lines.reduce((sum, line) => sum + lineTotalCents(line), 0);
}

/** GST is 10 % of the subtotal, rounded to the cent (half up). */
export function gstCents(subtotal: number): number {
  return Math.round(subtotal * GST_RATE);
}

/**
 * What a shopper sees for a product price (spec-decisions "Money"): the headline is the
 * GST-inclusive price (ex-GST × 1.1, rounded to the cent), with the ex-GST price beside it.
 * The charge itself is still priced once per order by `priceOrder`.
 */
export function displayPrice(exGstCents: number): { incGstCents: number; exGstCents: number } {
  return { incGstCents: exGstCents + gstCents(exGstCents), exGstCents };
}

/** The GST share of a GST-inclusive amount (the delivery charge): 1/11 of it, rounded to the cent. */
export function gstShareOfInclusive(inclusiveCents: number): number {
  return Math.round(inclusiveCents / 11);
}

/** Goods delivered outside Australia are GST-free exports; an order with no address yet is priced as Australian. */
export function isGstFreeExport(country: string | null | undefined): boolean {
  return country != null && country !== 'Australia';
}

export function shippingCents(
  subtotal: number,
  plan: ShippingPlan = null,
  fulfilment: 'delivery' | 'collect' = 'delivery',
): number {
  if (fulfilment === 'collect' || plan === 'premium') return 0;
  return subtotal > FREE_SHIPPING_THRESHOLD_CENTS ? 0 : FLAT_SHIPPING_CENTS;
}

/** How much more (ex GST) a shopper needs for free delivery; 0 once it is free. */
export function freeDeliveryShortfallCents(subtotal: number, plan: ShippingPlan = null): number {
  if (shippingCents(subtotal, plan) === 0) return 0;
  return FREE_SHIPPING_THRESHOLD_CENTS - subtotal + 1;
}

/**
 * Checkout, orders and invoices: subtotal + GST + shipping (the spec's formula), where GST is 0
 * for an export and the delivery charge is GST-inclusive (its share is reported, not added).
 */
export function priceOrder(lines: readonly PricedLine[], options: PricingOptions | ShippingPlan = {}): OrderTotals {
  const {
    plan = null,
    fulfilment = 'delivery',
    country = null,
  } = typeof options === 'object' && options !== null ? options : { plan: options };
  const subtotal = subtotalCents(lines);
  const gstFree = fulfilment === 'delivery' && isGstFreeExport(country);
  const gst = gstFree ? 0 : gstCents(subtotal);
  const shipping = shippingCents(subtotal, plan, fulfilment);
  const shippingGst = gstFree ? 0 : gstShareOfInclusive(shipping);
  return {
    subtotalCents: subtotal,
    gstCents: gst,
    shippingCents: shipping,
    shippingGstCents: shippingGst,
    totalGstCents: gst + shippingGst,
    totalCents: subtotal + gst + shipping,
  };
}

/** The cart page (spec §9 "1.1 times subtotal"): shipping is 'Calculated at checkout', so not in the total. */
export function priceCart(
  lines: readonly PricedLine[],
): Pick<OrderTotals, 'subtotalCents' | 'gstCents' | 'totalCents'> {
  const subtotal = subtotalCents(lines);
  const gst = gstCents(subtotal);
  return { subtotalCents: subtotal, gstCents: gst, totalCents: subtotal + gst };
}
