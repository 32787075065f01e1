import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { COUNTRIES } from '../../contracts/account-fields.ts';
import { isExpiryValid, passesLuhn } from '../../contracts/orders.ts';
import {
  displayPrice,
  FLAT_SHIPPING_CENTS,
  FREE_SHIPPING_THRESHOLD_CENTS,
  freeDeliveryShortfallCents,
  GST_RATE,
  gstCents,
  gstShareOfInclusive,
  isGstFreeExport,
  lineTotalCents,
  type PricedLine,
  priceCart,
  priceOrder,
  type ShippingPlan,
  shippingCents,
  subtotalCents,
} from '../../contracts/pricing.ts';

/*
 * The shop's one pricing rule (spec-decisions "Money"): integer cents, GST 10 % of the
 * subtotal rounded half up, shipping $10 unless the subtotal is over $100 (Premium ships
 * free), the cart's total without shipping. Plus the card helpers of contracts/orders.ts.
 */

/** GST in exact integer arithmetic: a tenth of the subtotal, half a cent rounding up. */
const exactGst = (subtotal: number) => Math.floor((subtotal + 5) / 10);

/** Up to $1,000,000.00 a unit and 999 units a line (the order schema's limit). */
const line = fc.record({
  unitPriceCents: fc.integer({ min: 0, max: 100_000_000 }),
  quantity: fc.integer({ min: 1, max: 999 }),
});
const lines = fc.array(line, { maxLength: 100 });
const plan = fc.constantFrom<ShippingPlan>(null, 'basic', 'premium');
/** Any subtotal an order can have (an int4 column). */
const subtotal = fc.integer({ min: 0, max: 2_147_483_647 });

describe('the constants', () => {
  it('are the decisions page figures: $100.00 threshold, $10.00 shipping, 10 % GST', () => {
    expect(FREE_SHIPPING_THRESHOLD_CENTS).toBe(10_000);
    expect(FLAT_SHIPPING_CENTS).toBe(1_000);
    expect(GST_RATE).toBe(0.1);
  });
});

describe('lineTotalCents and subtotalCents', () => {
  it('multiplies unit price by quantity', () => {
    expect(lineTotalCents({ unitPriceCents: 1_999, quantity: 3 })).toBe(5_997);
    expect(lineTotalCents({ unitPriceCents: 0, quantity: 7 })).toBe(0);
    expect(lineTotalCents({ unitPriceCents: 3_333, quantity: 1 })).toBe(3_333);
  });

  it('is unit × quantity for every line, an exact integer', () => {
    fc.assert(
      fc.property(line, (priced) => {
        const total = lineTotalCents(priced);
        expect(total).toBe(priced.unitPriceCents * priced.quantity);
        expect(Number.isSafeInteger(total)).toBe(true);
      }),
    );
  });

  it('adds the line totals; an empty cart is 0', () => {
    expect(subtotalCents([])).toBe(0);
    expect(
      subtotalCents([
        { unitPriceCents: 10, quantity: 1 },
        { unitPriceCents: 20, quantity: 1 },
      ]),
    ).toBe(30);
    fc.assert(
      fc.property(lines, (priced) => {
        let expected = 0;
        for (const each of priced) expected += each.unitPriceCents * each.quantity;
        expect(subtotalCents(priced)).toBe(expected);
      }),
    );
  });
});

describe('gstCents', () => {
  it('is 10 % rounded to the cent, half up', () => {
    expect(gstCents(0)).toBe(0);
    expect(gstCents(4)).toBe(0);
    expect(gstCents(5)).toBe(1);
    expect(gstCents(14)).toBe(1);
    expect(gstCents(15)).toBe(2);
    expect(gstCents(25)).toBe(3);
    expect(gstCents(35)).toBe(4);
    expect(gstCents(9_999)).toBe(1_000);
    expect(gstCents(10_000)).toBe(1_000);
    expect(gstCents(10_001)).toBe(1_000);
    expect(gstCents(10_005)).toBe(1_001);
    expect(gstCents(123_456_785)).toBe(12_345_679);
  });

  it('equals the exact integer rule for every subtotal (no floating-point drift)', () => {
    fc.assert(
      fc.property(subtotal, (cents) => {
        const gst = gstCents(cents);
        expect(gst).toBe(exactGst(cents));
        // Within half a cent of a tenth: 10 × gst − subtotal ∈ [−4, 5].
        expect(gst * 10 - cents).toBeGreaterThanOrEqual(-4);
        expect(gst * 10 - cents).toBeLessThanOrEqual(5);
      }),
      { numRuns: 5_000 },
    );
  });

  it('rounds every subtotal ending in 5 up', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 214_748_363 }), (tens) => {
        expect(gstCents(tens * 10 + 5)).toBe(tens + 1);
        expect(gstCents(tens * 10 + 4)).toBe(tens);
      }),
      { numRuns: 5_000 },
    );
  });
});

describe('shippingCents', () => {
  it('charges $10 up to and at $100.00 and nothing from $100.01', () => {
    expect(shippingCents(0)).toBe(1_000);
    expect(shippingCents(1)).toBe(1_000);
    expect(shippingCents(9_999)).toBe(1_000);
    expect(shippingCents(10_000)).toBe(1_000);
    expect(shippingCents(10_001)).toBe(0);
    expect(shippingCents(1_000_000)).toBe(0);
  });

  it('treats the basic plan as no plan', () => {
    expect(shippingCents(10_000, 'basic')).toBe(1_000);
    expect(shippingCents(10_001, 'basic')).toBe(0);
    fc.assert(
      fc.property(subtotal, (cents) => {
        expect(shippingCents(cents, 'basic')).toBe(shippingCents(cents));
      }),
    );
  });

  it('ships Premium members free at any subtotal', () => {
    expect(shippingCents(0, 'premium')).toBe(0);
    expect(shippingCents(10_000, 'premium')).toBe(0);
    fc.assert(
      fc.property(subtotal, (cents) => {
        expect(shippingCents(cents, 'premium')).toBe(0);
      }),
    );
  });

  it('is free exactly when the subtotal is over the threshold (no plan)', () => {
    fc.assert(
      fc.property(subtotal, (cents) => {
        expect(shippingCents(cents)).toBe(cents > FREE_SHIPPING_THRESHOLD_CENTS ? 0 : FLAT_SHIPPING_CENTS);
      }),
    );
  });
});

describe('priceOrder', () => {
  it('prices $100.00 with shipping and $100.01 without', () => {
    // The $10 delivery is GST-inclusive: its GST share ($0.91) is reported, not added.
    expect(priceOrder([{ unitPriceCents: 10_000, quantity: 1 }])).toEqual({
      subtotalCents: 10_000,
      gstCents: 1_000,
      shippingCents: 1_000,
      shippingGstCents: 91,
      totalGstCents: 1_091,
      totalCents: 12_000,
    });
    expect(priceOrder([{ unitPriceCents: 10_001, quantity: 1 }])).toEqual({
      subtotalCents: 10_001,
      gstCents: 1_000,
      shippingCents: 0,
      shippingGstCents: 0,
      totalGstCents: 1_000,
      totalCents: 11_001,
    });
    // Three lines of $33.33 are $99.99: still under the threshold.
    expect(priceOrder([{ unitPriceCents: 3_333, quantity: 3 }])).toEqual({
      subtotalCents: 9_999,
      gstCents: 1_000,
      shippingCents: 1_000,
      shippingGstCents: 91,
      totalGstCents: 1_091,
      totalCents: 11_999,
    });
    // $50.00 + $50.01 crosses it.
    expect(
      priceOrder([
        { unitPriceCents: 5_000, quantity: 1 },
        { unitPriceCents: 5_001, quantity: 1 },
      ]),
    ).toEqual({
      subtotalCents: 10_001,
      gstCents: 1_000,
      shippingCents: 0,
      shippingGstCents: 0,
      totalGstCents: 1_000,
      totalCents: 11_001,
    });
  });

  it('ships a Premium order of $100.00 free', () => {
    expect(priceOrder([{ unitPriceCents: 2_500, quantity: 4 }], 'premium')).toEqual({
      subtotalCents: 10_000,
      gstCents: 1_000,
      shippingCents: 0,
      shippingGstCents: 0,
      totalGstCents: 1_000,
      totalCents: 11_000,
    });
  });

  it('is never negative, always integer cents, and total = subtotal + GST + shipping', () => {
    fc.assert(
      fc.property(lines, plan, (priced, chosen) => {
        const totals = priceOrder(priced, chosen);
        for (const value of Object.values(totals)) {
          expect(Number.isSafeInteger(value)).toBe(true);
          expect(value).toBeGreaterThanOrEqual(0);
        }
        expect(totals.subtotalCents).toBe(subtotalCents(priced));
        expect(totals.gstCents).toBe(exactGst(totals.subtotalCents));
        expect(totals.shippingCents).toBe(shippingCents(totals.subtotalCents, chosen));
        expect(totals.totalCents).toBe(totals.subtotalCents + totals.gstCents + totals.shippingCents);
        expect(totals.totalCents).toBeGreaterThanOrEqual(totals.subtotalCents);
      }),
      { numRuns: 2_000 },
    );
  });

  it('does not depend on the order of the lines', () => {
    fc.assert(
      fc.property(lines, (priced) => {
        const reversed = [...priced].reverse();
        const sorted = [...priced].sort((a, b) => a.unitPriceCents - b.unitPriceCents || a.quantity - b.quantity);
        expect(priceOrder(reversed)).toEqual(priceOrder(priced));
        expect(priceOrder(sorted)).toEqual(priceOrder(priced));
      }),
    );
  });

  it('agrees with the same money typed in dollars (two decimals) and converted once', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ dollars: fc.integer({ min: 0, max: 999_999 }), cents: fc.integer({ min: 0, max: 99 }) })),
        (prices) => {
          const priced: PricedLine[] = prices.map(({ dollars, cents }) => ({
            unitPriceCents: Math.round(Number(`${dollars}.${String(cents).padStart(2, '0')}`) * 100),
            quantity: 1,
          }));
          expect(priced.map((each) => each.unitPriceCents)).toEqual(
            prices.map(({ dollars, cents }) => dollars * 100 + cents),
          );
          expect(priceOrder(priced).subtotalCents).toBe(prices.reduce((sum, p) => sum + p.dollars * 100 + p.cents, 0));
        },
      ),
    );
  });
});

describe('the GST figures (issue 22: GST-inclusive delivery, exports)', () => {
  it('prices HT-100001: $89.00 + $10 delivery → GST $8.90 + $0.91 = $9.81, total $107.90', () => {
    expect(priceOrder([{ unitPriceCents: 8_900, quantity: 1 }], { country: 'Australia' })).toEqual({
      subtotalCents: 8_900,
      gstCents: 890,
      shippingCents: 1_000,
      shippingGstCents: 91,
      totalGstCents: 981,
      totalCents: 10_790,
    });
  });

  it('prices 2 × $9.95 once per order: GST $1.99 on $19.90, not twice a rounded $1.00', () => {
    expect(priceOrder([{ unitPriceCents: 995, quantity: 2 }], { country: 'Australia' })).toEqual({
      subtotalCents: 1_990,
      gstCents: 199,
      shippingCents: 1_000,
      shippingGstCents: 91,
      totalGstCents: 290,
      totalCents: 3_189,
    });
    // The shelf price is $10.95 inc GST (99.5 cents of GST rounds up); two of them are $21.90,
    // a cent above the charge's $21.89: the Order Summary is authoritative (ruling "Money").
    expect(displayPrice(995)).toEqual({ incGstCents: 1_095, exGstCents: 995 });
  });

  it('charges no GST on an export: goods and delivery to the United States are GST-free', () => {
    expect(priceOrder([{ unitPriceCents: 8_900, quantity: 1 }], { country: 'United States' })).toEqual({
      subtotalCents: 8_900,
      gstCents: 0,
      shippingCents: 1_000,
      shippingGstCents: 0,
      totalGstCents: 0,
      totalCents: 9_900,
    });
    for (const country of ['Canada', 'United Kingdom']) {
      expect(priceOrder([{ unitPriceCents: 12_345, quantity: 1 }], { country }).totalGstCents, country).toBe(0);
    }
  });

  it('prices an order with no address yet (the quote) as Australian', () => {
    expect(priceOrder([{ unitPriceCents: 8_900, quantity: 1 }], { country: null })).toEqual(
      priceOrder([{ unitPriceCents: 8_900, quantity: 1 }], { country: 'Australia' }),
    );
    expect(priceOrder([{ unitPriceCents: 8_900, quantity: 1 }])).toEqual(
      priceOrder([{ unitPriceCents: 8_900, quantity: 1 }], { country: 'Australia' }),
    );
  });

  it('charges no delivery for click & collect, and collect at the Sydney store is never an export', () => {
    const collect = { unitPriceCents: 8_900, quantity: 1 };
    expect(priceOrder([collect], { fulfilment: 'collect', country: 'Australia' })).toEqual({
      subtotalCents: 8_900,
      gstCents: 890,
      shippingCents: 0,
      shippingGstCents: 0,
      totalGstCents: 890,
      totalCents: 9_790,
    });
    expect(priceOrder([collect], { fulfilment: 'collect', country: 'United States' })).toEqual(
      priceOrder([collect], { fulfilment: 'collect' }),
    );
  });

  it('takes the delivery GST as 1/11 of the GST-inclusive charge, rounded to the cent', () => {
    expect(gstShareOfInclusive(1_000)).toBe(91);
    expect(gstShareOfInclusive(0)).toBe(0);
    expect(gstShareOfInclusive(1_100)).toBe(100);
    expect(gstShareOfInclusive(5)).toBe(0);
    expect(gstShareOfInclusive(6)).toBe(1);
  });

  it('knows an export by its country; no country is Australian', () => {
    expect(isGstFreeExport('Australia')).toBe(false);
    expect(isGstFreeExport(null)).toBe(false);
    expect(isGstFreeExport(undefined)).toBe(false);
    for (const country of ['United States', 'Canada', 'United Kingdom']) expect(isGstFreeExport(country)).toBe(true);
  });
});

describe('displayPrice', () => {
  it('headlines ex GST × 1.1 rounded to the cent, with the ex-GST price beside it', () => {
    expect(displayPrice(8_900)).toEqual({ incGstCents: 9_790, exGstCents: 8_900 });
    expect(displayPrice(0)).toEqual({ incGstCents: 0, exGstCents: 0 });
    expect(displayPrice(1)).toEqual({ incGstCents: 1, exGstCents: 1 });
    expect(displayPrice(5)).toEqual({ incGstCents: 6, exGstCents: 5 });
    expect(displayPrice(10_000)).toEqual({ incGstCents: 11_000, exGstCents: 10_000 });
  });

  it('is the one-line cart’s subtotal + GST for every price, in whole cents', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 100_000_000 }), (exGst) => {
        const shown = displayPrice(exGst);
        expect(Number.isSafeInteger(shown.incGstCents)).toBe(true);
        expect(shown.exGstCents).toBe(exGst);
        expect(shown.incGstCents).toBe(priceCart([{ unitPriceCents: exGst, quantity: 1 }]).totalCents);
        expect(shown.incGstCents).toBe(exGst + exactGst(exGst));
      }),
      { numRuns: 2_000 },
    );
  });
});

describe('freeDeliveryShortfallCents', () => {
  it('is what takes the ex-GST subtotal over $100.00; nothing once delivery is free or for Premium', () => {
    expect(freeDeliveryShortfallCents(8_900)).toBe(1_101);
    expect(freeDeliveryShortfallCents(0)).toBe(10_001);
    expect(freeDeliveryShortfallCents(10_000)).toBe(1);
    expect(freeDeliveryShortfallCents(10_001)).toBe(0);
    expect(freeDeliveryShortfallCents(8_900, 'basic')).toBe(1_101);
    expect(freeDeliveryShortfallCents(8_900, 'premium')).toBe(0);
    expect(freeDeliveryShortfallCents(0, 'premium')).toBe(0);
  });

  it('adding the shortfall always makes delivery free, and a cent less never does', () => {
    fc.assert(
      fc.property(subtotal, plan, (cents, chosen) => {
        const shortfall = freeDeliveryShortfallCents(cents, chosen);
        expect(Number.isSafeInteger(shortfall)).toBe(true);
        expect(shortfall).toBeGreaterThanOrEqual(0);
        expect(shippingCents(cents + shortfall, chosen)).toBe(0);
        if (shortfall > 0) expect(shippingCents(cents + shortfall - 1, chosen)).toBe(FLAT_SHIPPING_CENTS);
      }),
      { numRuns: 2_000 },
    );
  });
});

describe('priceOrder for any cart and address', () => {
  const country = fc.constantFrom<string | null>(null, ...COUNTRIES);
  const fulfilment = fc.constantFrom<'delivery' | 'collect'>('delivery', 'collect');

  it('keeps the spec’s total for Australia, drops every GST for an export, all in whole cents', () => {
    fc.assert(
      fc.property(lines, plan, country, fulfilment, (priced, chosen, where, how) => {
        const totals = priceOrder(priced, { plan: chosen, country: where, fulfilment: how });
        for (const value of Object.values(totals)) {
          expect(Number.isSafeInteger(value)).toBe(true);
          expect(value).toBeGreaterThanOrEqual(0);
        }
        const subtotal = subtotalCents(priced);
        const shipping = shippingCents(subtotal, chosen, how);
        expect(totals.subtotalCents).toBe(subtotal);
        expect(totals.shippingCents).toBe(shipping);
        expect(totals.totalGstCents).toBe(totals.gstCents + totals.shippingGstCents);
        const isExport = how === 'delivery' && where !== null && where !== 'Australia';
        if (isExport) {
          expect(totals.gstCents).toBe(0);
          expect(totals.shippingGstCents).toBe(0);
          expect(totals.totalCents).toBe(subtotal + shipping);
        } else {
          // The spec's formula, unchanged: subtotal + round(subtotal × 0.1) + shipping.
          expect(totals.gstCents).toBe(exactGst(subtotal));
          expect(totals.totalCents).toBe(subtotal + exactGst(subtotal) + shipping);
          expect(totals.shippingGstCents).toBe(shipping === 0 ? 0 : Math.round(shipping / 11));
        }
      }),
      { numRuns: 3_000 },
    );
  });
});

describe('priceCart', () => {
  it('leaves shipping out: total = subtotal + GST (the cart page shows "Calculated at checkout")', () => {
    expect(priceCart([{ unitPriceCents: 5_000, quantity: 1 }])).toEqual({
      subtotalCents: 5_000,
      gstCents: 500,
      totalCents: 5_500,
    });
    expect(priceCart([])).toEqual({ subtotalCents: 0, gstCents: 0, totalCents: 0 });
  });

  it('is the order price without shipping for every cart', () => {
    fc.assert(
      fc.property(lines, (priced) => {
        const cart = priceCart(priced);
        const order = priceOrder(priced);
        expect(Object.keys(cart).sort()).toEqual(['gstCents', 'subtotalCents', 'totalCents']);
        expect(cart.subtotalCents).toBe(order.subtotalCents);
        expect(cart.gstCents).toBe(order.gstCents);
        expect(cart.totalCents).toBe(cart.subtotalCents + cart.gstCents);
        expect(cart.totalCents).toBe(order.totalCents - order.shippingCents);
        expect(cart.totalCents).toBeGreaterThanOrEqual(0);
      }),
      { numRuns: 1_000 },
    );
  });
});

describe('passesLuhn', () => {
  it('accepts the test cards and well-known valid numbers', () => {
    for (const number of ['4242424242424242', '4000000000000002', '5555555555554444', '4111111111111111', '0']) {
      expect(passesLuhn(number), number).toBe(true);
    }
  });

  it('refuses a mistyped last digit or a swapped pair', () => {
    for (const number of ['4242424242424241', '4000000000000001', '5555555555554445', '2424424242424242']) {
      expect(passesLuhn(number), number).toBe(false);
    }
  });

  it('finds exactly one check digit for every 15-digit prefix', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^\d{15}$/), (prefix) => {
        const valid = '0123456789'.split('').filter((digit) => passesLuhn(prefix + digit));
        expect(valid).toHaveLength(1);
      }),
    );
  });

  it('catches every single changed digit of a valid number', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^\d{15}$/),
        fc.integer({ min: 0, max: 15 }),
        fc.integer({ min: 1, max: 9 }),
        (prefix, position, shift) => {
          const check = '0123456789'.split('').find((digit) => passesLuhn(prefix + digit)) ?? '';
          const valid = prefix + check;
          const changed = String((Number(valid[position]) + shift) % 10);
          const typo = valid.slice(0, position) + changed + valid.slice(position + 1);
          expect(passesLuhn(valid)).toBe(true);
          expect(passesLuhn(typo)).toBe(false);
        },
      ),
    );
  });
});

describe('isExpiryValid', () => {
  // 15 April 2026, local time (the function reads local months).
  const april2026 = new Date(2026, 3, 15, 12, 0, 0);

  it('accepts this month and later, refuses a past month', () => {
    expect(isExpiryValid('04/26', april2026)).toBe(true);
    expect(isExpiryValid('05/26', april2026)).toBe(true);
    expect(isExpiryValid('01/27', april2026)).toBe(true);
    expect(isExpiryValid('03/26', april2026)).toBe(false);
    expect(isExpiryValid('12/25', april2026)).toBe(false);
    expect(isExpiryValid('04/25', april2026)).toBe(false);
  });

  it('keeps a card valid to the last moment of its month and refuses it from the next', () => {
    expect(isExpiryValid('04/26', new Date(2026, 3, 30, 23, 59, 59, 999))).toBe(true);
    expect(isExpiryValid('04/26', new Date(2026, 4, 1, 0, 0, 0))).toBe(false);
    expect(isExpiryValid('12/26', new Date(2026, 11, 31, 23, 59))).toBe(true);
    expect(isExpiryValid('12/26', new Date(2027, 0, 1, 0, 0))).toBe(false);
    expect(isExpiryValid('01/27', new Date(2026, 11, 31, 23, 59))).toBe(true);
  });

  it('refuses anything but MM/YY with a month 01-12', () => {
    for (const shape of [
      '4/26',
      '04/2026',
      '0426',
      '04-26',
      '04 /26',
      ' 04/26',
      '04/26 ',
      '00/26',
      '13/26',
      '04/6',
      'ab/cd',
      '',
      '04/26/1',
      '０４/２６',
    ]) {
      expect(isExpiryValid(shape, april2026), shape).toBe(false);
    }
  });

  it('refuses a date more than 20 years ahead', () => {
    expect(isExpiryValid('12/46', april2026)).toBe(true);
    expect(isExpiryValid('01/47', april2026)).toBe(false);
  });

  it('agrees with month arithmetic for every MM/YY and every month of the century', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 0, max: 99 }),
        fc.integer({ min: 2000, max: 2079 }),
        fc.integer({ min: 0, max: 11 }),
        (month, yy, nowYear, nowMonth) => {
          const now = new Date(nowYear, nowMonth, 10);
          const expiry = `${String(month).padStart(2, '0')}/${String(yy).padStart(2, '0')}`;
          const year = 2000 + yy;
          const expected = year * 12 + month - 1 >= nowYear * 12 + nowMonth && year <= nowYear + 20;
          expect(isExpiryValid(expiry, now)).toBe(expected);
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it('uses the current date by default', () => {
    const now = new Date();
    const thisMonth = `${String(now.getMonth() + 1).padStart(2, '0')}/${String(now.getFullYear() % 100).padStart(2, '0')}`;
    const lastYear = `${String(now.getMonth() + 1).padStart(2, '0')}/${String((now.getFullYear() - 1) % 100).padStart(2, '0')}`;
    expect(isExpiryValid(thisMonth)).toBe(true);
    expect(isExpiryValid(lastYear)).toBe(false);
  });
});
