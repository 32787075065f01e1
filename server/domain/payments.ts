import { randomBytes, randomInt } from 'node:crypto';
import { ORDER_MESSAGES } from '../../contracts/orders.ts';

/** What the gateway is charged with: a card typed at checkout, or a saved method's reference. */
export type PaymentSource =
  | { kind: 'card'; number: string; expiry: string; cvc: string; name: string }
  | { kind: 'saved'; last4: string; provider: string };

export type ChargeResult =
  | { status: 'approved'; transactionId: string; cardBrand: string; last4: string }
  | { status: 'declined'; message: string };

/**
 * The payment gateway, behind an interface so a real provider can replace the simulator.
 * Neither method may log or keep the card number or CVC.
 */
export interface PaymentGateway {
  charge(request: { amountCents: number; source: PaymentSource; idempotencyKey: string }): Promise<ChargeResult>;
  refund(request: { transactionId: string; amountCents: number }): Promise<{ refundId: string }>;
}

/** Test cards of spec-decisions "Payments". */
export const APPROVE_CARD = '4242424242424242';
export const DECLINE_CARD = '4000000000000002';

export function cardBrandOf(number: string): string {
  if (/^4/.test(number)) return 'Visa';
  if (/^(5[1-5]|2[2-7])/.test(number)) return 'MasterCard';
  if (/^3[47]/.test(number)) return 'American Express';
  if (/^6(011|5)/.test(number)) return 'Discover';
  return 'Card';
}

/**
 * The default gateway (spec-decisions "Payments"): 4242 4242 4242 4242 approves, 4000 0000
 * 0000 0002 declines, any other valid number declines with probability `declineRate`
 * (PAYMENT_DECLINE_RATE, default 0.3). A saved method approves unless its last 4 digits
 * are 0002.
 */
export function createSimulatedGateway(options: {
  declineRate: number;
  random?: () => number;
  /** How long a charge takes to answer (PAYMENT_SIMULATOR_DELAY_MS): a real gateway's seconds, for tests of what happens meanwhile. */
  delayMs?: number;
}): PaymentGateway {
  const random = options.random ?? (() => randomInt(0, 1_000_000) / 1_000_000);
  const delayMs = options.delayMs ?? 0;
  const approved = (cardBrand: string, last4: string): ChargeResult => ({
    status: 'approved',
    transactionId: `sim_${randomBytes(12).toString('hex')}`,
    cardBrand,
    last4,
  });
  const declined: ChargeResult = { status: 'declined', message: ORDER_MESSAGES.declined };
  return {
    async charge({ source }) {
      if (delayMs > 0) await new Promise((done) => setTimeout(done, delayMs));
      if (source.kind === 'saved') return source.last4 === '0002' ? declined : approved(source.provider, source.last4);
      if (source.number === APPROVE_CARD) return approved('Visa', '4242');
      if (source.number === DECLINE_CARD) return declined;
      return random() < options.declineRate ? declined : approved(cardBrandOf(source.number), source.number.slice(-4));
    },
    async refund() {
      return { refundId: `sim_re_${randomBytes(12).toString('hex')}` };
    },
  };
}
