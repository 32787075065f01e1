/*
 * Card numbers in text: Luhn's check, and the one scanner every stored free-text field of a
 * payment method goes through (the form and the API share it through the zod schemas).
 */

/** Luhn's check digit: catches a mistyped digit before the gateway is asked. */
export function passesLuhn(digits: string): boolean {
  let sum = 0;
  for (let index = 0; index < digits.length; index += 1) {
    let digit = Number(digits[digits.length - 1 - index]);
    if (index % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

/** The digit counts of card numbers (ISO/IEC 7812: 13 to 19). */
const CARD_DIGITS = { min: 13, max: 19 } as const;

/** Digits, in groups split by at most 3 spaces, dashes or dots together ("4242 4242", "4242.4242", "4242 - 4242"). */
const DIGIT_RUN = /\d+(?:[ .-]{1,3}\d+)*/g;

/**
 * Whether `text` holds something that reads as a card number: consecutive digit groups (split by
 * up to 3 spaces, dashes or dots) of 13 to 19 digits in all that pass Luhn, wherever they sit
 * ("pm_4111111111111111", "card 4000 0000 0000 0002 please"). Groups are taken whole: a longer
 * unbroken run of digits is not searched inside.
 */
export function containsCardNumber(text: string): boolean {
  for (const run of text.matchAll(DIGIT_RUN)) {
    const groups = run[0].split(/[ .-]+/);
    for (let first = 0; first < groups.length; first += 1) {
      let digits = '';
      for (let last = first; last < groups.length; last += 1) {
        digits += groups[last];
        if (digits.length > CARD_DIGITS.max) break;
        if (digits.length >= CARD_DIGITS.min && passesLuhn(digits)) return true;
      }
    }
  }
  return false;
}
