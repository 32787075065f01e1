import { and, eq, gt, inArray, isNull, lt, lte, or, sql } from 'drizzle-orm';
import { type MembershipPlanId, planNamed } from '../../contracts/membership.ts';
import { formatDollars } from '../../contracts/money.ts';
import type { Database } from '../../db/client.ts';
import { type MembershipChargeRow, membershipCharges, memberships, paymentMethods, users } from '../../db/schema.ts';
import { formatEmailDate, renderEmail } from './email-layout.ts';
import type { Mailer } from './mail.ts';
import type { ChargeResult, PaymentGateway } from './payments.ts';
import type { Transaction } from './stock.ts';

const DAY_MS = 86_400_000;

/**
 * The renewal rules (issue 21): a renewal is tried on its date and, when declined, again a day
 * and two days later (3 attempts) with benefits kept, then the membership lapses; a reminder
 * goes 7 days before; a renewal charged more than a day late (the job was down, or the member
 * was overdue when billing landed) starts its period when it is charged, so missed months are
 * never billed. A claimed renewal is leased for 10 minutes: a process that dies mid-charge
 * leaves it to another, which asks the gateway again with the same idempotency key.
 */
export const RENEWAL_RULES = {
  attempts: 3,
  retryAfterMs: DAY_MS,
  reminderBeforeMs: 7 * DAY_MS,
  lateAfterMs: DAY_MS,
  leaseMs: 10 * 60_000,
  intervalMs: 60_000,
  batch: 100,
} as const;

/** The plan's monthly price in cents. */
export function priceOf(plan: MembershipPlanId): number {
  const found = planNamed(plan);
  if (!found) throw new Error(`Unknown plan ${plan}`);
  return found.monthlyPriceCents;
}

/**
 * What moving to a dearer plan costs for the rest of the paid period, in cents rounded down:
 * `floor((newPrice − oldPrice) × msLeft / periodMs)`, msLeft clamped to [0, periodMs]. Zero for
 * a cheaper or the same plan (those wait for the renewal).
 */
export function proRatedUpgradeCents(
  oldPriceCents: number,
  newPriceCents: number,
  period: { periodStart: Date; periodEnd: Date; now: Date },
): number {
  const difference = newPriceCents - oldPriceCents;
  const periodMs = period.periodEnd.getTime() - period.periodStart.getTime();
  if (difference <= 0 || periodMs <= 0) return 0;
  const msLeft = Math.min(Math.max(period.periodEnd.getTime() - period.now.getTime(), 0), periodMs);
  return Math.floor((difference * msLeft) / periodMs);
}

/** The GST inside a GST-inclusive amount (1/11 of it), rounded to the cent. */
export function gstOfCents(amountCents: number): number {
  return Math.round(amountCents / 11);
}

/** "$19.99, includes GST of $1.82". */
export function amountWithGst(amountCents: number): string {
  return `${formatDollars(amountCents / 100)}, includes GST of ${formatDollars(gstOfCents(amountCents) / 100)}`;
}

/** A calendar month on (the 31st runs into the next month, as Date does). */
export function oneMonthFrom(date: Date): Date {
  const next = new Date(date);
  next.setMonth(next.getMonth() + 1);
  return next;
}

/**
 * Join and upgrade claims left pending longer than the lease by a process that died are
 * settled as declined, so they no longer block the member's next charge (a renewal or a new
 * join or upgrade). A real gateway's answer for them would come from reconciliation.
 */
export async function dropStaleClaims(tx: Transaction, userId: number, now: Date): Promise<void> {
  await tx
    .update(membershipCharges)
    .set({ status: 'declined', updatedAt: now })
    .where(
      and(
        eq(membershipCharges.userId, userId),
        eq(membershipCharges.status, 'pending'),
        inArray(membershipCharges.kind, ['join', 'upgrade']),
        lt(membershipCharges.updatedAt, new Date(now.getTime() - RENEWAL_RULES.leaseMs)),
      ),
    );
}

/** Where the period a renewal pays for starts: its date, unless it is charged more than a day late (then now). */
export function renewalPeriodStart(renewsOn: Date, now: Date): Date {
  return now.getTime() - renewsOn.getTime() > RENEWAL_RULES.lateAfterMs ? now : renewsOn;
}

/** The idempotency key of one gateway attempt of a charge row: the row's id and the attempt. */
export function chargeKey(charge: Pick<MembershipChargeRow, 'id' | 'attempts'>): string {
  return `membership-charge:${charge.id}:${charge.attempts}`;
}

/** The receipt every membership charge sends (always: spec-decisions "Money"): the amount with its GST, the card, the period and the next renewal. */
export function chargeReceipt(options: {
  shopName: string;
  /** PUBLIC_URL: where the membership page link points. */
  origin: string;
  to: string;
  firstName: string;
  plan: MembershipPlanId;
  kind: MembershipChargeRow['kind'];
  amountCents: number;
  card: string | null;
  renewsOn: Date;
  nextChargeCents: number | null;
  /** When the card was charged (the job's clock); now by default. */
  chargedAt?: Date;
}) {
  const plan = planNamed(options.plan)?.name ?? options.plan;
  const what =
    options.kind === 'upgrade'
      ? `the move to ${plan} for the rest of this month`
      : options.kind === 'join'
        ? `your first month of ${plan}`
        : `another month of ${plan}`;
  return renderEmail(
    {
      to: options.to,
      kind: 'membership-charge',
      subject: `${options.shopName}: ${formatDollars(options.amountCents / 100)} charged for your ${plan} membership`,
      heading: `${plan} membership: payment received`,
      paragraphs: [
        `Hi ${options.firstName},`,
        `We charged ${amountWithGst(options.amountCents)}${options.card ? ` to your ${options.card}` : ''} for ${what} on ${formatEmailDate(options.chargedAt ?? new Date())}.`,
        options.nextChargeCents === null
          ? `Your membership runs until ${formatEmailDate(options.renewsOn)}.`
          : `Your membership renews on ${formatEmailDate(options.renewsOn)} for ${formatDollars(options.nextChargeCents / 100)}.`,
      ],
      totals: [
        { label: 'Charged', value: formatDollars(options.amountCents / 100), strong: true },
        { label: 'GST included', value: formatDollars(gstOfCents(options.amountCents) / 100) },
      ],
      action: { label: 'Your membership', url: `${options.origin}/membership` },
    },
    { name: options.shopName, origin: options.origin },
  );
}

interface JobLog {
  error(object: object, message: string): void;
}

/**
 * The renewal job (issue 21). Every app process runs it (once at start, then every minute);
 * `runOnce(now)` does one pass with the given clock:
 * - ends memberships cancelled for the end of a period that has run out;
 * - sends the 7-day reminder, once per period (a conditional update claims it);
 * - charges each due renewal: the member's row is claimed `FOR UPDATE SKIP LOCKED` and leased,
 *   a `membership_charges` row unique on (member, period, 'renewal') is written before the
 *   gateway is called with that row's id and attempt as the idempotency key, and the result is
 *   settled only if that attempt is still the pending one. However many processes run at once,
 *   a member is charged once a period.
 */
export function createMembershipBilling({
  db,
  gateway,
  mailer,
  shopName,
  origin,
}: {
  db: Database;
  gateway: PaymentGateway;
  mailer: Mailer;
  shopName: string;
  /** PUBLIC_URL: where the e-mails' links point. */
  origin: string;
}) {
  const emailShop = { name: shopName, origin };
  let log: JobLog = { error: () => {} };
  let timer: ReturnType<typeof setInterval> | undefined;
  let running: Promise<unknown> | null = null;

  const cardOf = (method: { provider: string; last4Digits: string } | undefined | null) =>
    method ? `${method.provider} ending ${method.last4Digits}` : null;

  async function sendReminders(now: Date): Promise<number> {
    const claimed = await db
      .update(memberships)
      .set({ remindedFor: sql`${memberships.renewsOn}` })
      .where(
        and(
          eq(memberships.status, 'active'),
          gt(memberships.renewsOn, now),
          lte(memberships.renewsOn, new Date(now.getTime() + RENEWAL_RULES.reminderBeforeMs)),
          or(isNull(memberships.remindedFor), sql`${memberships.remindedFor} <> ${memberships.renewsOn}`),
        ),
      )
      .returning();
    for (const membership of claimed) {
      const [user] = await db.select().from(users).where(eq(users.id, membership.userId));
      if (!user) continue;
      const [method] = membership.paymentMethodId
        ? await db.select().from(paymentMethods).where(eq(paymentMethods.id, membership.paymentMethodId))
        : [];
      const plan = membership.pendingPlan ?? membership.plan;
      const amount = priceOf(plan);
      const renewsOn = formatEmailDate(membership.renewsOn);
      void mailer.send(
        renderEmail(
          {
            to: user.email,
            kind: 'membership-reminder',
            subject: `${shopName}: your ${planNamed(plan)?.name} membership renews on ${renewsOn} for ${formatDollars(amount / 100)}`,
            heading: `Your membership renews on ${renewsOn}`,
            paragraphs: [
              `Hi ${user.firstName},`,
              `Your ${planNamed(plan)?.name} membership renews on ${renewsOn}: we will charge ${amountWithGst(amount)}${method ? ` to your ${cardOf(method)}` : ''}.`,
              method ? '' : 'There is no card on your membership: add one on the membership page before then.',
              'To stop it, cancel on the membership page before that day; your benefits last until then.',
            ],
            action: { label: 'Your membership', url: `${origin}/membership` },
          },
          emailShop,
        ),
      );
    }
    return claimed.length;
  }

  type Outcome = 'charged' | 'declined' | 'lapsed' | 'skipped' | 'failed';

  /** One member's due renewal: claim, charge, settle. */
  async function renew(userId: number, now: Date): Promise<Outcome> {
    const claim = await db.transaction(async (tx) => {
      const [membership] = await tx
        .select()
        .from(memberships)
        .where(
          and(
            eq(memberships.userId, userId),
            inArray(memberships.status, ['active', 'past_due']),
            lte(memberships.renewsOn, now),
            or(isNull(memberships.nextAttemptAt), lte(memberships.nextAttemptAt, now)),
          ),
        )
        .for('update', { skipLocked: true });
      if (!membership) return null;
      // A join or upgrade whose process died would otherwise hold the one-in-flight slot for good.
      await dropStaleClaims(tx, userId, now);
      const periodStart =
        membership.status === 'active' ? renewalPeriodStart(membership.renewsOn, now) : membership.renewsOn;
      const plan = membership.pendingPlan ?? membership.plan;
      const fields = { plan, amountCents: priceOf(plan), paymentMethodId: membership.paymentMethodId };
      let [charge] = await tx
        .insert(membershipCharges)
        .values({ userId, kind: 'renewal', periodStart, status: 'pending', attempts: 1, ...fields })
        .onConflictDoNothing()
        .returning();
      if (!charge) {
        const [existing] = await tx
          .select()
          .from(membershipCharges)
          .where(
            and(
              eq(membershipCharges.userId, userId),
              eq(membershipCharges.periodStart, periodStart),
              eq(membershipCharges.kind, 'renewal'),
            ),
          );
        // Another charge of this member (an upgrade) is in flight: the next pass renews.
        if (!existing) return null;
        if (existing.status === 'declined') {
          [charge] = await tx
            .update(membershipCharges)
            .set({ status: 'pending', attempts: sql`${membershipCharges.attempts} + 1`, ...fields, updatedAt: now })
            .where(and(eq(membershipCharges.id, existing.id), eq(membershipCharges.status, 'declined')))
            .returning();
        } else {
          // Pending: a process died mid-charge; approved: it died before recording it.
          charge = existing;
        }
      }
      if (!charge) return null;
      await tx
        .update(memberships)
        .set({ nextAttemptAt: new Date(now.getTime() + RENEWAL_RULES.leaseMs), renewsOn: periodStart })
        .where(eq(memberships.userId, userId));
      const [method] = charge.paymentMethodId
        ? await tx.select().from(paymentMethods).where(eq(paymentMethods.id, charge.paymentMethodId))
        : [];
      const [user] = await tx.select().from(users).where(eq(users.id, userId));
      return { charge, method, user };
    });
    if (!claim) return 'skipped';
    const { charge, method, user } = claim;

    let result: ChargeResult;
    if (charge.status === 'approved') {
      result = {
        status: 'approved',
        transactionId: charge.transactionId ?? '',
        cardBrand: charge.cardBrand ?? '',
        last4: charge.cardLast4 ?? '',
      };
    } else if (!method) {
      result = { status: 'declined', message: 'No saved payment method' };
    } else {
      try {
        result = await gateway.charge({
          amountCents: charge.amountCents,
          source: { kind: 'saved', last4: method.last4Digits, provider: method.provider },
          idempotencyKey: chargeKey(charge),
        });
      } catch (error) {
        // No answer: the lease runs out and a later pass asks again with the same key.
        log.error({ err: error, userId }, 'membership renewal: the gateway did not answer');
        return 'failed';
      }
    }

    const settled = await db.transaction(async (tx) => {
      const [membership] = await tx.select().from(memberships).where(eq(memberships.userId, userId)).for('update');
      if (!membership) return null;
      if (charge.status !== 'approved') {
        const [row] = await tx
          .update(membershipCharges)
          .set(
            result.status === 'approved'
              ? {
                  status: 'approved',
                  transactionId: result.transactionId,
                  cardBrand: result.cardBrand,
                  cardLast4: result.last4,
                  updatedAt: now,
                }
              : { status: 'declined', updatedAt: now },
          )
          .where(
            and(
              eq(membershipCharges.id, charge.id),
              eq(membershipCharges.status, 'pending'),
              eq(membershipCharges.attempts, charge.attempts),
            ),
          )
          .returning();
        if (!row) return null;
      }
      // A shopper who cancelled while the charge ran keeps the cancellation.
      const cancelling = membership.status === 'cancelling' || membership.status === 'cancelled';
      if (result.status === 'approved') {
        const renewsOn = oneMonthFrom(charge.periodStart);
        await tx
          .update(memberships)
          .set({
            plan: charge.plan,
            pendingPlan: null,
            status: cancelling ? membership.status : 'active',
            periodStartedAt: charge.periodStart,
            renewsOn,
            nextAttemptAt: null,
            transactionId: result.transactionId,
            updatedAt: now,
          })
          .where(eq(memberships.userId, userId));
        return { outcome: 'charged' as const, renewsOn, cancelling };
      }
      const lapse = charge.attempts >= RENEWAL_RULES.attempts;
      const retryOn = new Date(now.getTime() + RENEWAL_RULES.retryAfterMs);
      await tx
        .update(memberships)
        .set(
          cancelling
            ? { nextAttemptAt: null, updatedAt: now }
            : lapse
              ? { status: 'lapsed', nextAttemptAt: null, updatedAt: now }
              : { status: 'past_due', nextAttemptAt: retryOn, updatedAt: now },
        )
        .where(eq(memberships.userId, userId));
      return { outcome: lapse ? ('lapsed' as const) : ('declined' as const), retryOn, cancelling };
    });
    if (!settled) return 'skipped';
    if (user && !settled.cancelling) {
      const plan = planNamed(charge.plan)?.name ?? charge.plan;
      if (settled.outcome === 'charged') {
        void mailer.send(
          chargeReceipt({
            shopName,
            origin,
            chargedAt: now,
            to: user.email,
            firstName: user.firstName,
            plan: charge.plan,
            kind: 'renewal',
            amountCents: charge.amountCents,
            card: cardOf(method),
            renewsOn: settled.renewsOn!,
            nextChargeCents: priceOf(charge.plan),
          }),
        );
      } else if (settled.outcome === 'declined') {
        void mailer.send(
          renderEmail(
            {
              to: user.email,
              kind: 'membership-declined',
              subject: `${shopName}: we could not renew your ${plan} membership`,
              heading: 'We could not renew your membership',
              paragraphs: [
                `Hi ${user.firstName},`,
                `Your ${plan} membership renewal of ${formatDollars(charge.amountCents / 100)}${method ? ` to your ${cardOf(method)}` : ''} was declined on ${formatEmailDate(now)}.`,
                `We will try again on ${formatEmailDate(settled.retryOn!)}; your benefits stay meanwhile.`,
                'To use another card, add it on the membership page before then.',
              ],
              action: { label: 'Your membership', url: `${origin}/membership` },
            },
            emailShop,
          ),
        );
      } else {
        void mailer.send(
          renderEmail(
            {
              to: user.email,
              kind: 'membership-lapsed',
              subject: `${shopName}: your ${plan} membership has lapsed`,
              heading: 'Your membership has lapsed',
              paragraphs: [
                `Hi ${user.firstName},`,
                `We tried ${RENEWAL_RULES.attempts} times to charge ${formatDollars(charge.amountCents / 100)} for your ${plan} membership and each was declined, so it ended on ${formatEmailDate(now)}.`,
                'Nothing more will be charged. You can join again at any time on the membership page.',
              ],
              action: { label: 'Join again', url: `${origin}/membership` },
            },
            emailShop,
          ),
        );
      }
    }
    return settled.outcome;
  }

  /** One pass of the job at `now`; returns what it did. Errors of one member are logged, not thrown. */
  async function runOnce(now: Date = new Date()) {
    const outcome = { ended: 0, reminded: 0, charged: 0, declined: 0, lapsed: 0, failed: 0 };
    const ended = await db
      .update(memberships)
      .set({ status: 'cancelled', nextAttemptAt: null, updatedAt: now })
      .where(and(eq(memberships.status, 'cancelling'), lte(memberships.renewsOn, now)))
      .returning({ userId: memberships.userId });
    outcome.ended = ended.length;
    outcome.reminded = await sendReminders(now);
    const due = await db
      .select({ userId: memberships.userId })
      .from(memberships)
      .where(
        and(
          inArray(memberships.status, ['active', 'past_due']),
          lte(memberships.renewsOn, now),
          or(isNull(memberships.nextAttemptAt), lte(memberships.nextAttemptAt, now)),
        ),
      )
      .orderBy(memberships.renewsOn)
      .limit(RENEWAL_RULES.batch);
    for (const { userId } of due) {
      try {
        const result = await renew(userId, now);
        if (result !== 'skipped') outcome[result] += 1;
      } catch (error) {
        outcome.failed += 1;
        log.error({ err: error, userId }, 'membership renewal failed');
      }
    }
    return outcome;
  }

  return {
    runOnce,
    /** Runs the job now and every minute in this process (every process may); `stop` ends it. */
    start(logger: JobLog): void {
      log = logger;
      const tick = () => {
        if (running) return;
        running = runOnce(new Date())
          .catch((error: unknown) => log.error({ err: error }, 'membership renewal job failed'))
          .finally(() => {
            running = null;
          });
      };
      tick();
      timer = setInterval(tick, RENEWAL_RULES.intervalMs);
      timer.unref();
    },
    async stop(): Promise<void> {
      if (timer) clearInterval(timer);
      timer = undefined;
      await running;
    },
  };
}

export type MembershipBilling = ReturnType<typeof createMembershipBilling>;
