import { describe, expect, it } from 'vitest';
import type { OrderItemRow, OrderRow } from '../../db/schema.ts';
import { cancelRefundFigures, paymentStatusAfterRefund, returnRefundFigures } from '../../server/domain/refunds.ts';

/** What a refund gives back (issue 22): a cancel everything, a return its lines and their GST, never more than was charged. */

function order(overrides: Partial<OrderRow> = {}): OrderRow {
  return {
    id: 1,
    subtotalCents: 8_900,
    gstCents: 890,
    shippingCents: 1_000,
    shippingGstCents: 91,
    totalCents: 10_790,
    refundedCents: 0,
    ...overrides,
  } as OrderRow;
}

function item(id: number, unitPriceCents: number, quantity: number): OrderItemRow {
  return {
    id,
    orderId: 1,
    productId: id,
    productName: `Product ${id}`,
    variantId: null,
    variantName: null,
    sku: `SKU-${id}`,
    unitPriceCents,
    quantity,
    imageUrl: null,
  };
}

describe('refund figures', () => {
  it('a cancel refunds the lines, their GST, the delivery and its GST share: HT-100001 → $107.90, GST $9.81', () => {
    const figures = cancelRefundFigures(order(), [item(1, 8_900, 1)]);
    expect(figures).toMatchObject({
      subtotalCents: 8_900,
      gstCents: 890,
      shippingCents: 1_000,
      shippingGstCents: 91,
      totalCents: 10_790,
    });
    expect(figures.lines).toEqual([
      { orderItemId: 1, productName: 'Product 1', sku: 'SKU-1', quantity: 1, unitPriceCents: 8_900, totalCents: 8_900 },
    ]);
  });

  it('a cancel of a legacy order refunds no delivery GST it never showed', () => {
    expect(cancelRefundFigures(order({ shippingGstCents: null }), [item(1, 8_900, 1)]).shippingGstCents).toBe(0);
  });

  it('a return refunds the returned lines and 10 % GST on them, not the delivery', () => {
    const items = [item(1, 2_500, 2), item(2, 1_000, 1)];
    const placed = order({ subtotalCents: 6_000, gstCents: 600, totalCents: 7_600 });
    expect(returnRefundFigures(placed, items, [{ orderItemId: 1, quantity: 1 }])).toMatchObject({
      subtotalCents: 2_500,
      gstCents: 250,
      shippingCents: 0,
      shippingGstCents: 0,
      totalCents: 2_750,
    });
  });

  it('a return never asks for more than was bought, and skips lines not in the order', () => {
    const figures = returnRefundFigures(
      order(),
      [item(1, 8_900, 1)],
      [
        { orderItemId: 1, quantity: 5 },
        { orderItemId: 99, quantity: 1 },
      ],
    );
    expect(figures.lines).toHaveLength(1);
    expect(figures.lines[0]?.quantity).toBe(1);
    expect(figures.totalCents).toBe(9_790);
  });

  it('every line back refunds exactly the GST the order charged, whatever 10 % of the lines comes to now', () => {
    // An order whose stored GST is not today's rounding of its subtotal: the refund follows the invoice.
    const placed = order({ subtotalCents: 15, gstCents: 1, shippingCents: 1_000, totalCents: 1_016 });
    const figures = returnRefundFigures(placed, [item(1, 5, 3)], [{ orderItemId: 1, quantity: 3 }]);
    expect(figures.gstCents).toBe(1);
    expect(figures.totalCents).toBe(16);
  });

  it('returns made one after another never refund more GST than the order charged, and the last brings it to exactly that', () => {
    // Two lines of 5 cents: the order charged round(10 × 0.1) = 1 cent of GST; each line alone rounds to 1 cent.
    const placed = order({
      subtotalCents: 10,
      gstCents: 1,
      shippingCents: 1_000,
      shippingGstCents: 91,
      totalCents: 1_011,
    });
    const items = [item(1, 5, 1), item(2, 5, 1)];
    const first = returnRefundFigures(placed, items, [{ orderItemId: 1, quantity: 1 }]);
    const second = returnRefundFigures(placed, items, [{ orderItemId: 2, quantity: 1 }], {
      subtotalCents: first.subtotalCents,
      gstCents: first.gstCents,
    });
    expect(first.gstCents + second.gstCents).toBe(1);
    expect(first.totalCents + second.totalCents).toBe(11);
  });

  it('a second return is taxed on everything returned so far, less the GST already refunded', () => {
    // Three lines of $3.33: 10 % of each alone is 33 cents, of all three $1.00 (round(99.9)).
    const placed = order({
      subtotalCents: 999,
      gstCents: 100,
      shippingCents: 1_000,
      shippingGstCents: 91,
      totalCents: 2_099,
    });
    const items = [item(1, 333, 1), item(2, 333, 1), item(3, 333, 1)];
    const first = returnRefundFigures(placed, items, [{ orderItemId: 1, quantity: 1 }]);
    const second = returnRefundFigures(placed, items, [{ orderItemId: 2, quantity: 1 }], first);
    const third = returnRefundFigures(placed, items, [{ orderItemId: 3, quantity: 1 }], {
      subtotalCents: first.subtotalCents + second.subtotalCents,
      gstCents: first.gstCents + second.gstCents,
    });
    expect([first.gstCents, second.gstCents, third.gstCents]).toEqual([33, 34, 33]);
    expect(first.gstCents + second.gstCents + third.gstCents).toBe(100);
  });

  it('an order that charged no GST (an export) refunds none', () => {
    const placed = order({ gstCents: 0, shippingGstCents: 0, totalCents: 9_900 });
    expect(returnRefundFigures(placed, [item(1, 8_900, 1)], [{ orderItemId: 1, quantity: 1 }])).toMatchObject({
      gstCents: 0,
      totalCents: 8_900,
    });
  });

  it('Refunded once everything the order cost is back, Partially refunded before', () => {
    expect(paymentStatusAfterRefund(10_790, 10_790)).toBe('Refunded');
    expect(paymentStatusAfterRefund(10_790, 9_790)).toBe('Partially refunded');
    expect(paymentStatusAfterRefund(0, 0)).toBe('Refunded');
  });
});
