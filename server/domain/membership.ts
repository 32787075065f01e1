import { and, desc, eq, gte, or, sql } from 'drizzle-orm';
import {
  MEMBERSHIP_MESSAGES,
  type MembershipPlanId,
  type MembershipStatus,
  planNamed,
} from '../../contracts/membership.ts';
import { formatDollars } from '../../contracts/money.ts';
import type { CardData } from '../../contracts/orders.ts';
import type { Database } from '../../db/client.ts';
import {
  type MembershipChargeRow,
  membershipCharges,
  memberships,
  type PaymentMethodRow,
  paymentMethods,
  users,
} from '../../db/schema.ts';
import type { CardVelocity } from './card-velocity.ts';
import type { CurrentPasswordChecks } from './current-password.ts';
import { formatEmailDate, renderEmail } from './email-layout.ts';
import { ConflictError, NotFoundError, ValidationError } from './errors.ts';
import type { Mailer } from './mail.ts';
import {
  amountWithGst,
  chargeKey,
  chargeReceipt,
  dropStaleClaims,
  gstOfCents,
  oneMonthFrom,
  priceOf,
  proRatedUpgradeCents,
  RENEWAL_RULES,
} from './membership-billing.ts';
import { PaymentDeclinedError } from './orders.ts';
import { type ChargeResult, cardBrandOf, type PaymentGateway, type PaymentSource } from './payments.ts';

export interface MembershipView {
  plan: MembershipPlanId;
  status: MembershipStatus;
  startedAt: string;
  renewsOn: string;
  /** A cheaper plan that takes over at the renewal, or null. */
  pendingPlan: MembershipPlanId | null;
  /** What the renewal will charge (the pending plan's price if any); null when none is coming. */
  nextChargeCents: number | null;
  /** While a declined renewal is retried: when the next attempt is. */
  retryOn: string | null;
  /** The saved method renewals charge (last 4 and expiry only). */
  paymentMethod: { id: number; provider: string; last4Digits: string; expiryMonth: string; expiryYear: number } | null;
  lastCharge: {
    kind: MembershipChargeRow['kind'];
    plan: MembershipPlanId;
    amountCents: number;
    chargedAt: string;
    last4: string | null;
  } | null;
}

type MembershipRow = typeof memberships.$inferSelect;
type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];

/** Who is joining: the client address (for the limits) and, for an account without a password, how this session confirms it is the owner. */
interface JoinMeta {
  address?: string | null;
  /** Resolves when the session proved itself with Google just now; throws (403) otherwise. */
  confirmWithGoogle?: () => Promise<unknown>;
}

/** A cancelled membership ends when the period it was paid for runs out (the renewal job also records it). */
function statusOf(row: Pick<MembershipRow, 'status' | 'renewsOn'>, now = Date.now()): MembershipStatus {
  return row.status === 'cancelling' && row.renewsOn.getTime() <= now ? 'cancelled' : row.status;
}

/** Whether the membership still gives its benefits (a renewal being retried does). */
function isLive(row: Pick<MembershipRow, 'status' | 'renewsOn'>): boolean {
  const status = statusOf(row);
  return status !== 'cancelled' && status !== 'lapsed';
}

const STALE_CLAIM_MS = RENEWAL_RULES.leaseMs;

/** How a join or plan change pays: a typed card (saved on approval) or one of the shopper's saved methods. */
type Payer =
  | { kind: 'card'; source: PaymentSource; card: CardData }
  | { kind: 'saved'; source: PaymentSource; method: PaymentMethodRow };

/**
 * Membership plans (spec §2 /membership, §9; issue 21 billing): joining confirms the account's
 * password and pays the first month through the gateway, saving the card as the membership's
 * payment method; a dearer plan is paid at once, pro-rated; a cheaper one waits for the
 * renewal (server/domain/membership-billing.ts charges renewals). Cancelling keeps the
 * benefits to the end of the paid period. Every charge is a `membership_charges` row written
 * before the gateway is called, and a member has at most one charge in flight.
 */
export function createMemberships({
  db,
  gateway,
  mailer,
  shopName,
  origin,
  currentPassword,
  cardVelocity,
}: {
  db: Database;
  gateway: PaymentGateway;
  mailer: Mailer;
  shopName: string;
  /** PUBLIC_URL: where the e-mails' links point. */
  origin: string;
  currentPassword: CurrentPasswordChecks;
  cardVelocity: CardVelocity;
}) {
  async function rowOf(userId: number): Promise<MembershipRow | undefined> {
    const [row] = await db.select().from(memberships).where(eq(memberships.userId, userId));
    return row;
  }

  async function current(userId: number): Promise<MembershipView | null> {
    const row = await rowOf(userId);
    if (!row) return null;
    const [method] = row.paymentMethodId
      ? await db.select().from(paymentMethods).where(eq(paymentMethods.id, row.paymentMethodId))
      : [];
    const [last] = await db
      .select()
      .from(membershipCharges)
      .where(and(eq(membershipCharges.userId, userId), eq(membershipCharges.status, 'approved')))
      .orderBy(desc(membershipCharges.updatedAt), desc(membershipCharges.id))
      .limit(1);
    const status = statusOf(row);
    const renewing = status === 'active' || status === 'past_due';
    return {
      plan: row.plan,
      status,
      startedAt: row.startedAt.toISOString(),
      renewsOn: row.renewsOn.toISOString(),
      pendingPlan: row.pendingPlan,
      nextChargeCents: renewing ? priceOf(row.pendingPlan ?? row.plan) : null,
      retryOn: status === 'past_due' && row.nextAttemptAt ? row.nextAttemptAt.toISOString() : null,
      paymentMethod: method
        ? {
            id: method.id,
            provider: method.provider,
            last4Digits: method.last4Digits,
            expiryMonth: method.expiryMonth,
            expiryYear: method.expiryYear,
          }
        : null,
      lastCharge: last
        ? {
            kind: last.kind,
            plan: last.plan,
            amountCents: last.amountCents,
            chargedAt: last.updatedAt.toISOString(),
            last4: last.cardLast4,
          }
        : null,
    };
  }

  /**
   * The account's password confirms the join; an account made with Google has none, so the
   * caller's `confirmWithGoogle` (a fresh Google sign-in of this session: accounts.confirmIdentity,
   * 403 otherwise) does, and without one the answer says to confirm with Google, never "incorrect".
   */
  async function confirmOwner(userId: number, password: string, meta: JoinMeta) {
    const verdict = await currentPassword.check(userId, password, { address: meta.address ?? null });
    if (verdict === 'ok') return;
    if (verdict === 'no-password' && meta.confirmWithGoogle) {
      await meta.confirmWithGoogle();
      return;
    }
    const message = verdict === 'no-password' ? MEMBERSHIP_MESSAGES.noPassword : MEMBERSHIP_MESSAGES.wrongPassword;
    throw new ValidationError(message, { password: [message] });
  }

  /** The payer named by a body: its card, or its saved method (404 unless the shopper's own). */
  async function payerOf(
    userId: number,
    input: { cardData?: CardData | null; paymentMethodId?: number | null },
  ): Promise<Payer | null> {
    if (input.cardData) {
      const card = input.cardData;
      return {
        kind: 'card',
        card,
        source: { kind: 'card', number: card.Number, expiry: card.Expiry, cvc: card.Cvc, name: card.Name },
      };
    }
    if (input.paymentMethodId === null || input.paymentMethodId === undefined) return null;
    const [method] = await db.select().from(paymentMethods).where(eq(paymentMethods.id, input.paymentMethodId));
    if (!method || method.userId !== userId) throw new NotFoundError('Payment method not found');
    return { kind: 'saved', method, source: { kind: 'saved', last4: method.last4Digits, provider: method.provider } };
  }

  /** Charges a claimed row through the card-attempt caps; a refusal or no answer gives the claim back. */
  async function charge(
    row: MembershipChargeRow,
    payer: Payer,
    who: { userId: number; address: string | null },
  ): Promise<ChargeResult> {
    let result: ChargeResult;
    try {
      result = await cardVelocity.attempt(
        {
          userId: who.userId,
          address: who.address,
          cardNumber: payer.kind === 'card' ? payer.card.Number : null,
          purpose: 'membership',
        },
        () => gateway.charge({ amountCents: row.amountCents, source: payer.source, idempotencyKey: chargeKey(row) }),
        (answer) => answer.status === 'declined',
      );
    } catch (error) {
      await settleDeclined(row);
      throw error;
    }
    if (result.status === 'declined') {
      await settleDeclined(row);
      throw new PaymentDeclinedError(result.message);
    }
    return result;
  }

  async function settleDeclined(row: MembershipChargeRow) {
    await db
      .update(membershipCharges)
      .set({ status: 'declined', updatedAt: new Date() })
      .where(and(eq(membershipCharges.id, row.id), eq(membershipCharges.status, 'pending')));
  }

  /** The saved method a payer stands for; a typed card is saved first (last 4 and expiry only). */
  async function methodIdOf(tx: Transaction, userId: number, payer: Payer, brand?: string): Promise<number> {
    if (payer.kind === 'saved') return payer.method.id;
    const [month = '01', year = '00'] = payer.card.Expiry.split('/');
    const [saved] = await tx
      .insert(paymentMethods)
      .values({
        userId,
        paymentType: 'Credit Card',
        provider: brand ?? cardBrandOf(payer.card.Number),
        last4Digits: payer.card.Number.slice(-4),
        expiryMonth: month.padStart(2, '0'),
        expiryYear: 2000 + Number(year),
      })
      .returning({ id: paymentMethods.id });
    return saved!.id;
  }

  /**
   * Records an approved charge and, for a typed card, saves it as a payment method (last 4 and
   * expiry only). Returns the id of the method that now pays the membership.
   */
  async function recordApproved(
    tx: Transaction,
    row: MembershipChargeRow,
    payer: Payer,
    result: Extract<ChargeResult, { status: 'approved' }>,
  ): Promise<number> {
    const methodId = await methodIdOf(tx, row.userId, payer, result.cardBrand);
    await tx
      .update(membershipCharges)
      .set({
        status: 'approved',
        transactionId: result.transactionId,
        cardBrand: result.cardBrand,
        cardLast4: result.last4,
        paymentMethodId: methodId,
        updatedAt: new Date(),
      })
      .where(eq(membershipCharges.id, row.id));
    return methodId;
  }

  function cardText(payer: Payer, result: Extract<ChargeResult, { status: 'approved' }>): string {
    return payer.kind === 'saved'
      ? `${payer.method.provider} ending ${payer.method.last4Digits}`
      : `${result.cardBrand} ending ${result.last4}`;
  }

  return {
    get: current,

    /** The plan whose benefits apply now (Premium ships free, both earn points), or null. */
    async planOf(userId: number): Promise<MembershipPlanId | null> {
      const row = await rowOf(userId);
      return row && isLive(row) ? row.plan : null;
    },

    /**
     * Joins: confirms the password (10 checks per account per 15 minutes; a Google-only account
     * through `meta.confirmWithGoogle`), charges the first
     * month by card (saved as the membership's method) or a saved method, through the
     * card-attempt caps. 409 while a membership or another join is live; 402 on decline.
     */
    async join(
      userId: number,
      input: { plan: MembershipPlanId; password: string; cardData?: CardData | null; paymentMethodId?: number | null },
      meta: JoinMeta = {},
    ): Promise<MembershipView> {
      const address = meta.address ?? null;
      const existing = await rowOf(userId);
      if (existing && isLive(existing)) throw new ConflictError(MEMBERSHIP_MESSAGES.alreadyMember);
      const [user] = await db.select().from(users).where(eq(users.id, userId));
      if (!user) throw new NotFoundError('Account not found');
      await confirmOwner(userId, input.password, meta);
      const payer = await payerOf(userId, input);
      if (!payer) throw new ValidationError(MEMBERSHIP_MESSAGES.noPaymentMethod);
      const plan = planNamed(input.plan)!;
      const now = new Date();
      // One join at a time per shopper: the claim row is written under the account's lock, and
      // the one-charge-in-flight index refuses a second.
      const claim = await db.transaction(async (tx) => {
        await tx.execute(sql`select 1 from ${users} where ${users.id} = ${userId} for update`);
        const [held] = await tx.select().from(memberships).where(eq(memberships.userId, userId));
        if (held && isLive(held)) throw new ConflictError(MEMBERSHIP_MESSAGES.alreadyMember);
        await dropStaleClaims(tx, userId, new Date());
        const [row] = await tx
          .insert(membershipCharges)
          .values({
            userId,
            kind: 'join',
            periodStart: now,
            plan: plan.id,
            amountCents: plan.monthlyPriceCents,
            paymentMethodId: payer.kind === 'saved' ? payer.method.id : null,
          })
          .onConflictDoNothing()
          .returning();
        if (!row) throw new ConflictError(MEMBERSHIP_MESSAGES.alreadyMember);
        return row;
      });
      const result = (await charge(claim, payer, { userId, address })) as Extract<ChargeResult, { status: 'approved' }>;
      const renewsOn = oneMonthFrom(now);
      await db.transaction(async (tx) => {
        const paymentMethodId = await recordApproved(tx, claim, payer, result);
        const values = {
          plan: plan.id,
          status: 'active' as const,
          startedAt: now,
          periodStartedAt: now,
          renewsOn,
          paymentMethodId,
          pendingPlan: null,
          nextAttemptAt: null,
          remindedFor: null,
          transactionId: result.transactionId,
          updatedAt: now,
        };
        await tx
          .insert(memberships)
          .values({ userId, ...values })
          .onConflictDoUpdate({ target: memberships.userId, set: values });
      });
      // The first month's receipt (always sent: spec-decisions "Money").
      void mailer.send(
        renderEmail(
          {
            to: user.email,
            kind: 'membership-welcome',
            subject: `Welcome to ${shopName} ${plan.name} membership`,
            heading: `Welcome to ${plan.name} membership`,
            paragraphs: [
              `Hi ${user.firstName},`,
              `You are now a ${plan.name} member. ${plan.benefits.join('. ')}.`,
              `We charged ${amountWithGst(plan.monthlyPriceCents)} to your ${cardText(payer, result)} for your first month on ${formatEmailDate(now)}.`,
              `We saved that card (its last 4 digits and expiry only) to pay your renewals: your membership renews on ${formatEmailDate(renewsOn)} for ${formatDollars(plan.monthlyPriceCents / 100)}.`,
            ],
            totals: [
              { label: 'Charged', value: formatDollars(plan.monthlyPriceCents / 100), strong: true },
              { label: 'GST included', value: formatDollars(gstOfCents(plan.monthlyPriceCents) / 100) },
            ],
            action: { label: 'Your membership', url: `${origin}/membership` },
            after: [
              'You can cancel at any time on the membership page; your benefits last to the end of the month you paid for.',
            ],
          },
          { name: shopName, origin },
        ),
      );
      return (await current(userId))!;
    },

    /** Ends the membership at the end of the paid period: nothing is charged at the renewal. */
    async cancel(userId: number): Promise<MembershipView> {
      const existing = await rowOf(userId);
      if (!existing || !isLive(existing)) throw new NotFoundError(MEMBERSHIP_MESSAGES.notMember);
      if (existing.status === 'cancelling') throw new ConflictError(MEMBERSHIP_MESSAGES.alreadyCancelling);
      await db
        .update(memberships)
        .set({ status: 'cancelling', nextAttemptAt: null, updatedAt: new Date() })
        .where(eq(memberships.userId, userId));
      return (await current(userId))!;
    },

    /**
     * Changes plan. Any change undoes a pending cancellation. The same plan again cancels a
     * pending downgrade (409 samePlan when there is nothing to undo); a cheaper plan becomes
     * pending and takes over, at its price, at the renewal; a dearer plan is charged at once,
     * `floor((new − old) × msLeft / periodMs)` cents, by the card or saved method given (which
     * then pays the renewals) or the membership's own, and cancels a pending downgrade. On a
     * decline: 402 and nothing changed. The member's row is locked while the change is claimed,
     * so of many requests at once one charges and the others find the plan taken (409).
     */
    async changePlan(
      userId: number,
      input: { plan: MembershipPlanId; cardData?: CardData | null; paymentMethodId?: number | null },
      meta: { address?: string | null } = {},
    ): Promise<MembershipView> {
      const payerGiven = await payerOf(userId, input);
      const target = planNamed(input.plan)!;
      const now = new Date();
      const step = await db.transaction(async (tx) => {
        const [row] = await tx.select().from(memberships).where(eq(memberships.userId, userId)).for('update');
        if (!row || !isLive(row)) throw new NotFoundError(MEMBERSHIP_MESSAGES.notMember);
        const resume = row.status === 'cancelling' ? { status: 'active' as const } : {};
        const held = priceOf(row.plan);
        if (target.monthlyPriceCents <= held) {
          // Nothing is charged now: a card or saved method given becomes the one renewals charge,
          // and a renewal being retried is tried again at the job's next pass.
          const method = payerGiven
            ? {
                paymentMethodId: await methodIdOf(tx, userId, payerGiven),
                ...(row.status === 'past_due' ? { nextAttemptAt: now } : {}),
              }
            : {};
          if (target.id === row.plan) {
            if (!row.pendingPlan && row.status !== 'cancelling' && !payerGiven) {
              throw new ConflictError(MEMBERSHIP_MESSAGES.samePlan);
            }
            await tx
              .update(memberships)
              .set({ pendingPlan: null, ...resume, ...method, updatedAt: now })
              .where(eq(memberships.userId, userId));
          } else {
            if (row.pendingPlan === target.id && row.status !== 'cancelling' && !payerGiven) {
              throw new ConflictError(MEMBERSHIP_MESSAGES.samePlan);
            }
            await tx
              .update(memberships)
              .set({ pendingPlan: target.id, ...resume, ...method, updatedAt: now })
              .where(eq(memberships.userId, userId));
          }
          return null;
        }
        if (row.status === 'past_due' || row.renewsOn.getTime() <= now.getTime()) {
          throw new ConflictError(MEMBERSHIP_MESSAGES.pastDue);
        }
        const inFlight = await tx
          .select({ id: membershipCharges.id })
          .from(membershipCharges)
          .where(
            and(
              eq(membershipCharges.userId, userId),
              eq(membershipCharges.status, 'pending'),
              or(
                eq(membershipCharges.kind, 'renewal'),
                gte(membershipCharges.updatedAt, new Date(now.getTime() - STALE_CLAIM_MS)),
              ),
            ),
          );
        // Another request is paying for this very change: it is as good as taken.
        if (inFlight.length > 0) throw new ConflictError(MEMBERSHIP_MESSAGES.samePlan);
        const amount = proRatedUpgradeCents(held, target.monthlyPriceCents, {
          periodStart: row.periodStartedAt,
          periodEnd: row.renewsOn,
          now,
        });
        if (amount === 0) {
          await tx
            .update(memberships)
            .set({ plan: target.id, pendingPlan: null, ...resume, updatedAt: now })
            .where(eq(memberships.userId, userId));
          return null;
        }
        let payer = payerGiven;
        if (!payer && row.paymentMethodId) {
          const [method] = await tx.select().from(paymentMethods).where(eq(paymentMethods.id, row.paymentMethodId));
          if (method)
            payer = {
              kind: 'saved',
              method,
              source: { kind: 'saved', last4: method.last4Digits, provider: method.provider },
            };
        }
        if (!payer) {
          throw new ValidationError(MEMBERSHIP_MESSAGES.noPaymentMethod, {
            cardData: [MEMBERSHIP_MESSAGES.noPaymentMethod],
          });
        }
        await dropStaleClaims(tx, userId, new Date());
        const fields = {
          plan: target.id,
          amountCents: amount,
          status: 'pending' as const,
          paymentMethodId: payer.kind === 'saved' ? payer.method.id : null,
          updatedAt: now,
        };
        // A declined upgrade earlier in this period is tried again as its next attempt.
        const [claim] = await tx
          .insert(membershipCharges)
          .values({ userId, kind: 'upgrade', periodStart: row.periodStartedAt, attempts: 1, ...fields })
          .onConflictDoUpdate({
            target: [membershipCharges.userId, membershipCharges.periodStart, membershipCharges.kind],
            set: { ...fields, attempts: sql`${membershipCharges.attempts} + 1` },
            setWhere: sql`${membershipCharges.status} = 'declined'`,
          })
          .returning();
        if (!claim) throw new ConflictError(MEMBERSHIP_MESSAGES.samePlan);
        return { claim, payer, resumed: row.status === 'cancelling' };
      });
      if (!step) return (await current(userId))!;

      const { claim, payer } = step;
      const result = (await charge(claim, payer, { userId, address: meta.address ?? null })) as Extract<
        ChargeResult,
        { status: 'approved' }
      >;
      const updated = await db.transaction(async (tx) => {
        const paymentMethodId = await recordApproved(tx, claim, payer, result);
        const [row] = await tx
          .update(memberships)
          .set({
            plan: target.id,
            pendingPlan: null,
            paymentMethodId,
            transactionId: result.transactionId,
            updatedAt: new Date(),
            ...(step.resumed ? { status: 'active' as const } : {}),
          })
          .where(eq(memberships.userId, userId))
          .returning();
        return row;
      });
      const [user] = await db.select().from(users).where(eq(users.id, userId));
      if (user && updated) {
        void mailer.send(
          chargeReceipt({
            shopName,
            origin,
            to: user.email,
            firstName: user.firstName,
            plan: target.id,
            kind: 'upgrade',
            amountCents: claim.amountCents,
            card: cardText(payer, result),
            renewsOn: updated.renewsOn,
            nextChargeCents: updated.status === 'cancelling' ? null : target.monthlyPriceCents,
          }),
        );
      }
      return (await current(userId))!;
    },
  };
}

export type Memberships = ReturnType<typeof createMemberships>;
