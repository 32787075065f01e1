import { passesLuhn } from '../../contracts/orders.ts';

/**
 * A Luhn-valid card number of its own for each seed: with PAYMENT_DECLINE_RATE 0 any valid card
 * pays, and the caps on card attempts count per card, so each shopper of a load test needs one.
 */
export function cardFor(seed: number): string {
  const body = `4111${String(seed).padStart(11, '0')}`;
  for (let check = 0; check <= 9; check += 1) if (passesLuhn(`${body}${check}`)) return `${body}${check}`;
  throw new Error('no Luhn check digit');
}
