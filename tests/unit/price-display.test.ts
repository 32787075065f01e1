import fc from 'fast-check';
import { createElement, type ReactElement } from 'react';
import { renderToString } from 'react-dom/server';
import { createRoutesStub } from 'react-router';
import { describe, expect, it } from 'vitest';
import { ProductCard } from '../../app/components/product-card.tsx';
import { formatIncGst, incGstDollars, savingIncGst } from '../../app/lib/price-display.ts';
import { displayPrice } from '../../contracts/pricing.ts';
import type { ProductCardItem } from '../../contracts/product-card.ts';

/* What a shopper reads for a product price (issue 22): GST-inclusive headline, ex-GST beside it. */

let shown: ReactElement | null = null;
function Shown(): ReactElement | null {
  return shown;
}
const Stub = createRoutesStub([{ path: '/', Component: Shown }]);

function cardText(overrides: Partial<ProductCardItem>): string {
  const product = {
    id: 7,
    name: 'Cordless Drill',
    sku: 'CD-7',
    price: 89,
    discountPrice: null,
    stockQuantity: 4,
    brandName: 'Brand',
    averageRating: 0,
    reviewCount: 0,
    imageUrl: null,
    ...overrides,
  } as ProductCardItem;
  shown = createElement(ProductCard, { product });
  return renderToString(createElement(Stub, { initialEntries: ['/'] }))
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ');
}

describe('price display helpers', () => {
  it('turn the API’s ex-GST dollars into the GST-inclusive figure', () => {
    expect(incGstDollars(89)).toBe(97.9);
    expect(formatIncGst(89)).toBe('$97.90');
    expect(formatIncGst(9.95)).toBe('$10.95');
    expect(formatIncGst(1234.5)).toBe('$1,357.95');
    expect(savingIncGst(100, 89)).toBe(12.1);
    expect(savingIncGst(89, 100)).toBe(0);
  });

  it('agree with displayPrice for every price in cents; the saving is the shown Was less the shown Now', () => {
    const cents = fc.integer({ min: 0, max: 100_000_000 });
    fc.assert(
      fc.property(cents, cents, (was, now) => {
        expect(Math.round(incGstDollars(was / 100) * 100)).toBe(displayPrice(was).incGstCents);
        const saving = Math.round(savingIncGst(was / 100, now / 100) * 100);
        expect(saving).toBe(Math.max(0, displayPrice(was).incGstCents - displayPrice(now).incGstCents));
      }),
      { numRuns: 2_000 },
    );
  });
});

describe('the product card', () => {
  it('headlines the price with GST and shows the ex-GST price beside it', () => {
    const text = cardText({ price: 89 });
    expect(text).toContain('$97.90 inc GST');
    expect(text).toContain('$89.00 ex GST');
  });

  it('says Was and Save GST-inclusive on a sale', () => {
    const text = cardText({ price: 100, discountPrice: 89 });
    expect(text).toContain('Save $12.10');
    expect(text).toContain('Now $97.90 inc GST');
    expect(text).toContain('$89.00 ex GST');
    expect(text).toContain('Was $110.00');
  });
});
