import { randomBytes, randomInt } from 'node:crypto';
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
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
 *
 * A charge's `idempotencyKey` is the order's own (user and checkout sessionId): the same key
 * again answers the first charge's result instead of charging twice, and `findCharge` tells
 * what a key's charge came to — how a reservation left by a crashed process is settled
 * (server/domain/orders.ts).
 */
export interface PaymentGateway {
  charge(request: { amountCents: number; source: PaymentSource; idempotencyKey: string }): Promise<ChargeResult>;
  /** The result of the charge made with this key, or null when none was made (or it never finished). */
  findCharge(idempotencyKey: string): Promise<ChargeResult | null>;
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
 * are 0002. Charges are remembered by key (the same key answers the same result); with
 * `ledgerFile` they are also appended to that file before they answer, so a restarted
 * process — and a test — can tell what was charged (never a card number: key, result,
 * transaction id, amount).
 */
export function createSimulatedGateway(options: {
  declineRate: number;
  random?: () => number;
  /** How long a charge takes to answer (PAYMENT_LATENCY_MS): a real gateway's latency, for tests and benches. */
  latencyMs?: number;
  ledgerFile?: string;
}): PaymentGateway {
  const random = options.random ?? (() => randomInt(0, 1_000_000) / 1_000_000);
  const latencyMs = options.latencyMs ?? 0;
  const charges = new Map<string, Promise<ChargeResult>>();
  if (options.ledgerFile && existsSync(options.ledgerFile)) {
    for (const line of readFileSync(options.ledgerFile, 'utf8').split('\n')) {
      if (!line) continue;
      try {
        const entry = JSON.parse(line) as LedgerEntry;
        charges.set(entry.key, Promise.resolve(entry.result));
      } catch {
        // A line cut short by a crash: that charge never answered.
      }
    }
  }
  const approved = (cardBrand: string, last4: string): ChargeResult => ({
    status: 'approved',
    transactionId: `sim_${randomBytes(12).toString('hex')}`,
    cardBrand,
    last4,
  });
  const declined: ChargeResult = { status: 'declined', message: ORDER_MESSAGES.declined };
  const decide = (source: PaymentSource): ChargeResult => {
    if (source.kind === 'saved') return source.last4 === '0002' ? declined : approved(source.provider, source.last4);
    if (source.number === APPROVE_CARD) return approved('Visa', '4242');
    if (source.number === DECLINE_CARD) return declined;
    return random() < options.declineRate ? declined : approved(cardBrandOf(source.number), source.number.slice(-4));
  };
  return {
    charge({ source, idempotencyKey, amountCents }) {
      const earlier = charges.get(idempotencyKey);
      if (earlier) return earlier;
      const result = (async () => {
        if (latencyMs > 0) await new Promise((done) => setTimeout(done, latencyMs));
        const outcome = decide(source);
        if (options.ledgerFile) {
          const entry: LedgerEntry = { key: idempotencyKey, amountCents, result: outcome };
          appendFileSync(options.ledgerFile, `${JSON.stringify(entry)}\n`);
        }
        return outcome;
      })();
      charges.set(idempotencyKey, result);
      // A charge that failed to answer was never made: the key may try again.
      result.catch(() => charges.delete(idempotencyKey));
      return result;
    },
    async findCharge(idempotencyKey) {
      return (await charges.get(idempotencyKey)?.catch(() => null)) ?? null;
    },
    async refund() {
      return { refundId: `sim_re_${randomBytes(12).toString('hex')}` };
    },
  };
}

/** One line of the simulator's ledger file. */
export interface LedgerEntry {
  key: string;
  amountCents: number;
  result: ChargeResult;
}
