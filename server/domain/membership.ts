import { eq, sql } from 'drizzle-orm';
import { MEMBERSHIP_MESSAGES, MEMBERSHIP_PLANS, type MembershipPlanId } from '../../contracts/membership.ts';
import type { CardData } from '../../contracts/orders.ts';
import type { Database } from '../../db/client.ts';
import { memberships, paymentMethods, users } from '../../db/schema.ts';
import { ConflictError, DomainError, NotFoundError, ValidationError } from './errors.ts';
import type { Mailer } from './mail.ts';
import { PaymentDeclinedError } from './orders.ts';
import { verifyPassword } from './passwords.ts';
import type { PaymentGateway, PaymentSource } from './payments.ts';

export interface MembershipView {
  plan: MembershipPlanId;
  status: 'active' | 'cancelling' | 'cancelled';
  startedAt: string;
  renewsOn: string;
}

/** A cancelled membership ends when the month it was paid for runs out. */
function statusOf(row: { status: MembershipView['status']; renewsOn: Date }): MembershipView['status'] {
  return row.status === 'cancelling' && row.renewsOn.getTime() <= Date.now() ? 'cancelled' : row.status;
}

function oneMonthFrom(date: Date): Date {
  const next = new Date(date);
  next.setMonth(next.getMonth() + 1);
  return next;
}

/**
 * Membership plans (spec §2 /membership, §9): joining checks the account's own password and
 * pays the first month through the payment gateway (same card form and messages as
 * checkout), then records the plan on the account. Cancelling keeps the benefits to the end
 * of the paid month; switching plans takes effect at once and the new price applies from
 * the next renewal.
 */
export function createMemberships({
  db,
  gateway,
  mailer,
  shopName,
}: {
  db: Database;
  gateway: PaymentGateway;
  mailer: Mailer;
  shopName: string;
}) {
  async function current(userId: number): Promise<MembershipView | null> {
    const [row] = await db.select().from(memberships).where(eq(memberships.userId, userId));
    if (!row) return null;
    return {
      plan: row.plan,
      status: statusOf(row),
      startedAt: row.startedAt.toISOString(),
      renewsOn: row.renewsOn.toISOString(),
    };
  }

  return {
    get: current,

    /** The plan whose benefits apply now (Premium ships free, both earn points), or null. */
    async planOf(userId: number): Promise<MembershipPlanId | null> {
      const membership = await current(userId);
      return membership && membership.status !== 'cancelled' ? membership.plan : null;
    },

    async join(
      userId: number,
      input: { plan: MembershipPlanId; password: string; cardData?: CardData | null; paymentMethodId?: number | null },
    ): Promise<MembershipView> {
      const existing = await current(userId);
      if (existing && existing.status !== 'cancelled') throw new ConflictError(MEMBERSHIP_MESSAGES.alreadyMember);
      const [user] = await db.select().from(users).where(eq(users.id, userId));
      if (!user) throw new NotFoundError('Account not found');
      if (!user.passwordHash || !(await verifyPassword(user.passwordHash, input.password))) {
        throw new ValidationError(MEMBERSHIP_MESSAGES.wrongPassword, { password: [MEMBERSHIP_MESSAGES.wrongPassword] });
      }
      let source: PaymentSource;
      if (input.cardData) {
        source = {
          kind: 'card',
          number: input.cardData.Number,
          expiry: input.cardData.Expiry,
          cvc: input.cardData.Cvc,
          name: input.cardData.Name,
        };
      } else {
        const [method] = await db
          .select()
          .from(paymentMethods)
          .where(eq(paymentMethods.id, input.paymentMethodId ?? 0));
        if (!method || method.userId !== userId) throw new NotFoundError('Payment method not found');
        source = { kind: 'saved', last4: method.last4Digits, provider: method.provider };
      }
      const plan = MEMBERSHIP_PLANS.find((candidate) => candidate.id === input.plan);
      if (!plan) throw new DomainError(400, 'Choose the Basic or the Premium plan');
      // One join at a time per shopper: the account's row is locked while the membership is
      // checked again, paid for and recorded, so two joins at once cannot both charge the card.
      const renewsOn = await db.transaction(async (tx) => {
        await tx.execute(sql`select 1 from ${users} where ${users.id} = ${userId} for update`);
        const [held] = await tx.select().from(memberships).where(eq(memberships.userId, userId));
        if (held && statusOf(held) !== 'cancelled') throw new ConflictError(MEMBERSHIP_MESSAGES.alreadyMember);
        const charge = await gateway.charge({
          amountCents: plan.monthlyPriceCents,
          source,
          idempotencyKey: `membership:${userId}:${Date.now()}`,
        });
        if (charge.status === 'declined') throw new PaymentDeclinedError(charge.message);
        const now = new Date();
        const values = {
          plan: input.plan,
          status: 'active' as const,
          startedAt: now,
          renewsOn: oneMonthFrom(now),
          transactionId: charge.transactionId,
          updatedAt: now,
        };
        await tx
          .insert(memberships)
          .values({ userId, ...values })
          .onConflictDoUpdate({ target: memberships.userId, set: values });
        return values.renewsOn;
      });
      void mailer.send({
        to: user.email,
        kind: 'membership-welcome',
        subject: `Welcome to ${shopName} ${plan.name} membership`,
        text: `Hi ${user.firstName},\n\nYou are now a ${plan.name} member. ${plan.benefits.join('. ')}.\nYour membership renews on ${renewsOn.toDateString()}.\n\n${shopName}`,
      });
      return (await current(userId))!;
    },

    /** Ends the membership at the end of the paid month. */
    async cancel(userId: number): Promise<MembershipView> {
      const existing = await current(userId);
      if (!existing || existing.status === 'cancelled') throw new NotFoundError(MEMBERSHIP_MESSAGES.notMember);
      if (existing.status === 'cancelling') throw new ConflictError(MEMBERSHIP_MESSAGES.alreadyCancelling);
      await db
        .update(memberships)
        .set({ status: 'cancelling', updatedAt: new Date() })
        .where(eq(memberships.userId, userId));
      return (await current(userId))!;
    },

    /** Switches plan at once (and undoes a pending cancellation); the new price applies from the next renewal. */
    async changePlan(userId: number, plan: MembershipPlanId): Promise<MembershipView> {
      const existing = await current(userId);
      if (!existing || existing.status === 'cancelled') throw new NotFoundError(MEMBERSHIP_MESSAGES.notMember);
      if (existing.plan === plan && existing.status === 'active') throw new ConflictError(MEMBERSHIP_MESSAGES.samePlan);
      await db
        .update(memberships)
        .set({ plan, status: 'active', updatedAt: new Date() })
        .where(eq(memberships.userId, userId));
      return (await current(userId))!;
    },
  };
}

export type Memberships = ReturnType<typeof createMemberships>;
