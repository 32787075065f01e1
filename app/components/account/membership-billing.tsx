import { planNamed } from '../../../contracts/membership.ts';
import { formatDollars } from '../../../contracts/money.ts';
import type { MembershipView } from '../../../server/domain/membership.ts';

const longDate = new Intl.DateTimeFormat('en-AU', {
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  timeZone: 'Australia/Sydney',
});
const shortDate = new Intl.DateTimeFormat('en-AU', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  timeZone: 'Australia/Sydney',
});

const CHARGE_KINDS: Record<NonNullable<MembershipView['lastCharge']>['kind'], string> = {
  join: 'first month',
  renewal: 'renewal',
  upgrade: 'plan upgrade',
};

/** Whether the membership still gives its benefits (a renewal being retried does). */
export function isCurrentMember(membership: Pick<MembershipView, 'status'> | null): boolean {
  return membership !== null && membership.status !== 'cancelled' && membership.status !== 'lapsed';
}

/**
 * The billing part of the membership card (issue 21): a declined renewal being retried, the
 * plan change waiting for the renewal, the next charge with the card it goes to, and the last
 * charge. Shown on /membership, /welcome and the account settings' membership tab.
 */
export function MembershipBilling({ membership }: { membership: MembershipView }) {
  const renewsOn = new Date(membership.renewsOn);
  const pending = membership.pendingPlan ? planNamed(membership.pendingPlan) : undefined;
  const card = membership.paymentMethod
    ? `${membership.paymentMethod.provider} ending ${membership.paymentMethod.last4Digits}`
    : null;
  const last = membership.lastCharge;
  return (
    <dl className="mt-3 grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[max-content_1fr]" data-testid="membership-billing">
      {membership.status === 'past_due' ? (
        <>
          <dt className="font-semibold text-sale">Payment declined</dt>
          <dd>
            {`We could not charge your renewal${card ? ` to your ${card}` : ''}.`}
            {membership.retryOn ? ` We will try again on ${longDate.format(new Date(membership.retryOn))}.` : ''} Your
            benefits stay meanwhile.
          </dd>
        </>
      ) : null}
      {pending ? (
        <>
          <dt className="font-semibold text-gray-600">Plan change</dt>
          <dd>{`Changes to ${pending.name} on ${shortDate.format(renewsOn)}`}</dd>
        </>
      ) : null}
      {membership.nextChargeCents !== null ? (
        <>
          <dt className="font-semibold text-gray-600">Next charge</dt>
          <dd>
            {`${formatDollars(membership.nextChargeCents / 100)} on ${longDate.format(renewsOn)}`}
            {card ? ` to your ${card}` : ' (no card on file: the renewal will be declined)'}
          </dd>
        </>
      ) : null}
      {last ? (
        <>
          <dt className="font-semibold text-gray-600">Last charge</dt>
          <dd>
            {`${formatDollars(last.amountCents / 100)} on ${longDate.format(new Date(last.chargedAt))} (${CHARGE_KINDS[last.kind]})`}
            {last.last4 ? `, card ending ${last.last4}` : ''}
          </dd>
        </>
      ) : null}
    </dl>
  );
}
