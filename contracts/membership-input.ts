import { z } from 'zod';
import { emailSchema } from './account.ts';
import { cardDataSchema, shippingAddressSchema } from './orders.ts';
import { numberIdSchema } from './params.ts';

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const planSchema = z.enum(['basic', 'premium'], { error: 'Choose the Basic or the Premium plan' });

/**
 * `POST /api/membership` and the /membership form (spec §3 "Membership form", §5 texts):
 * name, email, the account's password twice, the plan, and a card (or a saved method).
 */
export const joinMembershipSchema = z
  .object({
    plan: planSchema,
    name: z.string({ error: 'Name is required' }).trim().min(1, 'Name is required').max(200).optional(),
    email: emailSchema.optional(),
    password: z
      .string({ error: 'Password is required' })
      .min(1, 'Password is required')
      // Not `abort`: an aborted field would keep the checks across fields below from running.
      .refine((value) => value.length === 0 || value.length >= 6, 'Password must be at least 6 characters')
      .max(256),
    confirmPassword: z.string().max(256).optional(),
    cardData: cardDataSchema.nullish(),
    paymentMethodId: numberIdSchema('paymentMethodId must be the id of a saved payment method').nullish(),
  })
  // Both checks run even when another field is wrong, so the form shows every problem at once.
  .refine((body) => body.confirmPassword === undefined || body.confirmPassword === body.password, {
    path: ['confirmPassword'],
    message: 'Passwords do not match',
    when: ({ value }) =>
      isObject(value) &&
      typeof value.confirmPassword === 'string' &&
      typeof value.password === 'string' &&
      value.password !== '',
  })
  .refine((body) => Boolean(body.cardData) || (body.paymentMethodId !== null && body.paymentMethodId !== undefined), {
    path: ['cardData'],
    message: 'Enter a card, or choose a saved payment method',
    when: ({ value }) => isObject(value),
  })
  .meta({ id: 'JoinMembership' });
export type JoinMembershipInput = z.output<typeof joinMembershipSchema>;

/**
 * `PUT /api/membership`: the plan to move to. A dearer plan is paid at once, pro-rated, by the
 * card or saved method given here (which then pays the renewals too), else by the membership's own.
 */
export const changePlanSchema = z
  .object({
    plan: planSchema,
    cardData: cardDataSchema.nullish(),
    paymentMethodId: numberIdSchema('paymentMethodId must be the id of a saved payment method').nullish(),
  })
  .meta({ id: 'ChangeMembershipPlan' });
export type ChangePlanInput = z.output<typeof changePlanSchema>;

/** `POST /api/redemptions`: a redemption product paid with points, shipped like an order. */
export const redemptionSchema = z
  .object({
    productId: numberIdSchema('productId must be a product id'),
    quantity: z
      .number({ error: 'quantity must be a whole number' })
      .int()
      .min(1, 'quantity must be at least 1')
      .max(20, 'At most 20 at a time'),
    shippingAddress: shippingAddressSchema,
  })
  .meta({ id: 'RedemptionInput' });
export type RedemptionInput = z.output<typeof redemptionSchema>;
