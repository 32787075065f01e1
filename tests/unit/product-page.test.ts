import { describe, expect, it } from 'vitest';
import {
  availableStock,
  canonicalProductPath,
  clampQuantity,
  descriptionParagraphs,
  formatShortDollars,
  formatWeight,
  guaranteeCard,
  savingsOf,
  specificationRows,
  warrantyTitle,
} from '../../app/lib/product-page.ts';

describe('product page rules', () => {
  it('keeps the quantity between 1 and the available stock', () => {
    expect(clampQuantity(0, 5)).toBe(1);
    expect(clampQuantity(-3, 5)).toBe(1);
    expect(clampQuantity(3, 5)).toBe(3);
    expect(clampQuantity(999, 5)).toBe(5);
    expect(clampQuantity(2.7, 5)).toBe(2);
    expect(clampQuantity(Number.NaN, 5)).toBe(1);
    expect(clampQuantity(4, 0)).toBe(1);
  });

  it('counts what the cart already holds against the stock', () => {
    expect(availableStock(10, 0)).toBe(10);
    expect(availableStock(10, 4)).toBe(6);
    expect(availableStock(3, 5)).toBe(0);
  });

  it('works out the saving in whole cents', () => {
    expect(savingsOf({ price: 199.99, discountPrice: 149.99 })).toBe(50);
    expect(savingsOf({ price: 10.1, discountPrice: 9.9 })).toBe(0.2);
    expect(savingsOf({ price: 20, discountPrice: null })).toBe(0);
  });

  it('quotes whole-dollar thresholds without cents', () => {
    expect(formatShortDollars(100)).toBe('$100');
    expect(formatShortDollars(99.5)).toBe('$99.50');
    expect(formatShortDollars(1500)).toBe('$1,500');
  });

  it('splits the description on newlines and drops blank lines', () => {
    expect(descriptionParagraphs('First.\n\n  Second. \r\nThird.')).toEqual(['First.', 'Second.', 'Third.']);
    expect(descriptionParagraphs('  \n ')).toEqual([]);
  });

  it('names the warranty for the promo card', () => {
    expect(warrantyTitle('3 years')).toBe('3-Year Warranty');
    expect(warrantyTitle('5 years')).toBe('5-Year Warranty');
    expect(warrantyTitle('1 year')).toBe('1-Year Warranty');
    expect(warrantyTitle('12 months')).toBe('12-Month Warranty');
    expect(warrantyTitle('lifetime warranty')).toBe('Lifetime Warranty');
  });

  it('shows the product’s own warranty, else the returns promise, never an invented warranty', () => {
    expect(guaranteeCard('5 years')).toEqual({ title: '5-Year Warranty', detail: 'Quality guaranteed' });
    expect(guaranteeCard(' Lifetime ')).toEqual({ title: 'Lifetime Warranty', detail: 'Quality guaranteed' });
    for (const empty of [null, '', '  ']) {
      expect(guaranteeCard(empty)).toEqual({ title: '30-Day Returns', detail: 'From delivery or collection' });
    }
  });

  it('formats weights in kilograms, or grams below one', () => {
    expect(formatWeight(2.35)).toBe('2.35 kg');
    expect(formatWeight(3)).toBe('3 kg');
    expect(formatWeight(0.45)).toBe('450 g');
  });

  it('lists the product’s own specifications first, then the facts every product has', () => {
    const rows = specificationRows({
      specifications: { Voltage: '18 V', 'Chuck size': '13 mm', Empty: ' ' },
      sku: 'DEW-DCD791',
      brandName: 'DeWalt',
      weightKg: 1.6,
      dimensions: null,
      warrantyPeriod: '3 years',
    });
    expect(rows).toEqual([
      ['Voltage', '18 V'],
      ['Chuck size', '13 mm'],
      ['Brand', 'DeWalt'],
      ['SKU', 'DEW-DCD791'],
      ['Weight', '1.6 kg'],
      ['Warranty', '3 years'],
    ]);
  });

  it('does not repeat a fact the specifications already give', () => {
    const rows = specificationRows({
      specifications: { Weight: '1.7 kg (with battery)' },
      sku: 'X-1',
      brandName: 'Makita',
      weightKg: 1.6,
      dimensions: '30 x 10 x 25 cm',
      warrantyPeriod: null,
    });
    expect(rows.filter(([label]) => label === 'Weight')).toEqual([['Weight', '1.7 kg (with battery)']]);
    expect(rows).toContainEqual(['Dimensions', '30 x 10 x 25 cm']);
  });

  it('uses /product/:id as the canonical path', () => {
    expect(canonicalProductPath(42)).toBe('/product/42');
  });
});
