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
  gstCents: number;
  shippingCents: number;
  totalCents: number;
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

export function shippingCents(subtotal: number, plan: ShippingPlan = null): number {
  if (plan === 'premium') return 0;
  return subtotal > FREE_SHIPPING_THRESHOLD_CENTS ? 0 : FLAT_SHIPPING_CENTS;
}

/** Checkout, orders and invoices: subtotal + GST + shipping. */
export function priceOrder(lines: readonly PricedLine[], plan: ShippingPlan = null): OrderTotals {
  const subtotal = subtotalCents(lines);
  const gst = gstCents(subtotal);
  const shipping = shippingCents(subtotal, plan);
  return { subtotalCents: subtotal, gstCents: gst, shippingCents: shipping, totalCents: subtotal + gst + shipping };
}

/** The cart page (spec §9 "1.1 times subtotal"): shipping is 'Calculated at checkout', so not in the total. */
export function priceCart(lines: readonly PricedLine[]): Omit<OrderTotals, 'shippingCents'> {
  const subtotal = subtotalCents(lines);
  const gst = gstCents(subtotal);
  return { subtotalCents: subtotal, gstCents: gst, totalCents: subtotal + gst };
}
