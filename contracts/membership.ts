/**
 * The membership plans (spec §9) and what each gives: one list, read by /membership,
 * /welcome and the home page's banner, so a price or a benefit is written once.
 */
export const MEMBERSHIP_PLANS = [
  {
    id: 'basic',
    name: 'Basic',
    monthlyPriceCents: 9_99,
    pointsPerDollar: 1,
    freeShipping: false,
    benefits: [
      '1 point for every whole dollar you spend',
      'Member-only deals every month',
      'Redeem points for tools and gear',
    ],
  },
  {
    id: 'premium',
    name: 'Premium',
    monthlyPriceCents: 19_99,
    pointsPerDollar: 2,
    freeShipping: true,
    benefits: [
      '2 points for every whole dollar you spend',
      'Free shipping on every order, whatever its size',
      'Member-only deals every month',
      'Redeem points for tools and gear',
    ],
  },
] as const;

export type MembershipPlanId = (typeof MEMBERSHIP_PLANS)[number]['id'];

export const MEMBERSHIP_MESSAGES = {
  alreadyMember: 'You are already a member',
  notMember: 'You are not a member',
  alreadyCancelling: 'Your membership already ends at the end of this month',
  samePlan: 'You are already on this plan',
  wrongPassword: 'Your password is incorrect',
  /** A Google-made account has no password to confirm with (issue 21). */
  noPassword: 'Confirm with Google or set a password first',
  pastDue: 'Your renewal payment is overdue: you can move to a dearer plan once it is paid',
  noPaymentMethod: 'Enter a card, or choose a saved payment method',
  notEnoughPoints: 'Not enough points',
  notRedeemable: 'This product cannot be redeemed with points',
} as const;

export function planNamed(id: string): (typeof MEMBERSHIP_PLANS)[number] | undefined {
  return MEMBERSHIP_PLANS.find((plan) => plan.id === id);
}

/**
 * What a membership is now: 'past_due' while a declined renewal is retried (benefits kept),
 * 'lapsed' after the third declined attempt, 'cancelling' until the paid period ends.
 */
export const MEMBERSHIP_VIEW_STATUSES = ['active', 'cancelling', 'cancelled', 'past_due', 'lapsed'] as const;
export type MembershipStatus = (typeof MEMBERSHIP_VIEW_STATUSES)[number];
