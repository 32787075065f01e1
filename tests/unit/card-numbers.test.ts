/**
 * The one card-number scanner (issue 21): free text holding a digit run of 13 to 19 digits that
 * passes Luhn — digits may be split by spaces, dashes or dots (up to 3 together), and the run
 * may sit inside other text — holds a card number. Payment methods refuse such text.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { paymentMethodInputSchema } from '../../contracts/account.ts';
import { ACCOUNT_MESSAGES } from '../../contracts/account-fields.ts';
import { containsCardNumber, passesLuhn } from '../../contracts/card-numbers.ts';

/** A Luhn-valid number of `length` digits starting with `body`'s digits. */
function withCheckDigit(body: string): string {
  const check = '0123456789'.split('').find((digit) => passesLuhn(body + digit));
  return body + check;
}

const cardNumber = fc
  .integer({ min: 13, max: 19 })
  .chain((length) => fc.array(fc.integer({ min: 0, max: 9 }), { minLength: length - 1, maxLength: length - 1 }))
  .map((digits) => withCheckDigit(digits.join('')));

/** The number written the ways people write it: groups split by spaces, dashes or dots. */
const written = cardNumber.chain((digits) =>
  fc
    .array(fc.constantFrom('', '', '', ' ', '-', '.', ' - ', '  '), {
      minLength: digits.length - 1,
      maxLength: digits.length - 1,
    })
    .map((separators) => [...digits].map((digit, index) => digit + (separators[index] ?? '')).join('')),
);

const words = fc.string({ unit: fc.constantFrom(...'abcXYZ _:/#,;()'.split('')), maxLength: 12 });

describe('containsCardNumber', () => {
  it.each([
    '4242424242424242',
    '4242 4242 4242 4242',
    '4242-4242-4242-4242',
    '4242.4242.4242.4242',
    '4242 - 4242 - 4242 - 4242',
    'pm_4111111111111111',
    'my card is 4000 0000 0000 0002, thanks',
    '3782 822463 10005',
    '4222222222222',
    'ref 12 4242 4242 4242 4242',
  ])('finds a card number in %j', (text) => {
    expect(containsCardNumber(text)).toBe(true);
  });

  it.each([
    '',
    'pm_1A2B3C',
    '4242 4242 4242 4241',
    '4242424242424241',
    '+61 2 9000 0000',
    '424242424242',
    '4242....4242.4242.4242',
    'Visa ending 4242, expires 07/29',
  ])('finds none in %j', (text) => {
    expect(containsCardNumber(text)).toBe(false);
  });

  it('finds every Luhn-valid 13–19 digit number however it is written and wherever it sits (property)', () => {
    fc.assert(
      fc.property(words, written, words, (before, number, after) => {
        expect(containsCardNumber(`${before}x${number}x${after}`)).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('finds nothing in a lone digit run that fails Luhn (property)', () => {
    fc.assert(
      fc.property(words, cardNumber, words, (before, number, after) => {
        const last = Number(number.at(-1));
        const wrong = number.slice(0, -1) + String((last + 1) % 10);
        expect(containsCardNumber(`${before}x${wrong}x${after}`)).toBe(false);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('the payment method schema', () => {
  const method = {
    paymentType: 'Credit Card',
    provider: 'Visa',
    last4Digits: '4242',
    expiryMonth: '07',
    expiryYear: new Date().getFullYear() + 1,
  };

  it.each([
    ['paymentMethodId', '4242.4242.4242.4242'],
    ['paymentMethodId', 'pm_4111111111111111'],
    ['paymentMethodId', 'card 4000 0000 0000 0002'],
    ['nickname', 'Work card 5555.5555.5555.4444'],
  ])('refuses %s %j with the card-data message', (field, value) => {
    const parsed = paymentMethodInputSchema.safeParse({ ...method, [field]: value });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.find((issue) => issue.path[0] === field)?.message).toBe(
      ACCOUNT_MESSAGES.cardDataRefused,
    );
  });

  it('keeps a provider reference without a card number', () => {
    const parsed = paymentMethodInputSchema.safeParse({ ...method, paymentMethodId: 'pm_1A2B3C' });
    expect(parsed.success).toBe(true);
  });
});
