import { z } from 'zod';
import {
  ACCOUNT_LIMITS,
  ACCOUNT_MESSAGES,
  ADDRESS_TYPES,
  CONTACT_METHODS,
  COUNTRIES,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  PAYMENT_PROVIDERS,
  PAYMENT_TYPES,
} from './account-fields.ts';
import { checkAustralianAddress, normaliseAustralianAddress } from './australian-address.ts';
import { containsCardNumber } from './card-numbers.ts';

/*
 * One zod schema per input of the account area, shared by the pages' actions and the
 * API, so a shopper sees the same field messages an API client gets (spec §5 texts).
 */

/** PostgreSQL text cannot hold U+0000: such input is refused as a field error, never a failed query. */
const hasNoNul = (value: string) => !value.includes('\u0000');
const notAllowed = (label: string) => `${label} contains a character that is not allowed`;

/** A required text field: the same message whether it is missing, null or blank. */
function requiredText(missing: string, max: number, label: string) {
  return z
    .string({
      error: (issue) => (issue.input === undefined || issue.input === null ? missing : `${label} must be text`),
    })
    .trim()
    .min(1, missing)
    .max(max, `${label} must be ${max} characters or fewer`)
    .refine(hasNoNul, notAllowed(label));
}

/** An optional text field: blank, null or missing all mean "not given" (null). */
function optionalText(label: string, max: number) {
  return z
    .string({ error: `${label} must be text` })
    .trim()
    .max(max, `${label} must be ${max} characters or fewer`)
    .refine(hasNoNul, notAllowed(label))
    .nullish()
    .transform((value) => value || null);
}

export const emailSchema = z
  .string({ error: 'Email is required' })
  .trim()
  .min(1, 'Email is required')
  .max(ACCOUNT_LIMITS.email, 'Email is invalid')
  .pipe(z.email('Email is invalid'))
  .transform((email) => email.toLowerCase());

/** A new password: spec §5's minimum of 6, a maximum so hashing cannot be made to take forever. */
export const newPasswordSchema = z
  .string({ error: 'Password is required' })
  .min(1, { message: 'Password is required', abort: true })
  .min(PASSWORD_MIN_LENGTH, `Password must be at least ${PASSWORD_MIN_LENGTH} characters`)
  .max(PASSWORD_MAX_LENGTH, `Password must be ${PASSWORD_MAX_LENGTH} characters or fewer`);

/** A password being checked (sign-in, current password): any length up to the maximum. */
const givenPasswordSchema = (missing: string) =>
  z
    .string({ error: missing })
    .min(1, missing)
    .max(PASSWORD_MAX_LENGTH, `Password must be ${PASSWORD_MAX_LENGTH} characters or fewer`);

const PHONE_PATTERN = /^\+?[\d\s()-]+$/;

function phoneSchema(missing: string) {
  return requiredText(missing, ACCOUNT_LIMITS.phone, 'Phone number').refine((value) => {
    const digits = value.replace(/\D/g, '').length;
    return PHONE_PATTERN.test(value) && digits >= 6 && digits <= 15;
  }, 'Please enter a valid phone number, e.g. 0412 345 678');
}

/** An optional phone number (profile, address book, an order's contact phone). */
export const optionalPhoneSchema = optionalText('Phone number', ACCOUNT_LIMITS.phone).refine((value) => {
  if (value === null) return true;
  const digits = value.replace(/\D/g, '').length;
  return PHONE_PATTERN.test(value) && digits >= 6 && digits <= 15;
}, 'Please enter a valid phone number, e.g. 0412 345 678');

const countrySchema = z.enum(COUNTRIES, {
  error: (issue) =>
    issue.input === undefined || issue.input === ''
      ? 'Country is required'
      : `Country must be one of ${COUNTRIES.join(', ')}`,
});

/** The postal part of an address, shared by registration and the address book. */
const postalFields = {
  addressLine1: requiredText('Address is required', ACCOUNT_LIMITS.addressLine, 'Address'),
  addressLine2: optionalText('Address line 2', ACCOUNT_LIMITS.addressLine),
  city: requiredText('City is required', ACCOUNT_LIMITS.city, 'City'),
  state: requiredText('State is required', ACCOUNT_LIMITS.state, 'State'),
  postalCode: requiredText('Postal code is required', ACCOUNT_LIMITS.postalCode, 'Postal code'),
  country: countrySchema,
};

export const registrationAddressSchema = z
  .object(postalFields, { error: 'Address is required' })
  .superRefine(checkAustralianAddress)
  .transform(normaliseAustralianAddress);

/**
 * `POST /api/auth/register` (spec §7; `PhoneNumber` as the old client spells it, or
 * `phoneNumber`). The address becomes the shopper's first, default address.
 */
export const registerBodySchema = z
  .object({
    firstName: requiredText('First name is required', ACCOUNT_LIMITS.name, 'First name'),
    lastName: requiredText('Last name is required', ACCOUNT_LIMITS.name, 'Last name'),
    email: emailSchema,
    password: newPasswordSchema,
    // Checked below (one of the two is required), documented as what a client sends.
    phoneNumber: z
      .unknown()
      .optional()
      .meta({ type: 'string', description: 'Phone number (required, or PhoneNumber)' }),
    PhoneNumber: z
      .unknown()
      .optional()
      .meta({ type: 'string', description: 'The old client’s spelling of phoneNumber' }),
    address: registrationAddressSchema,
  })
  .transform(({ PhoneNumber, phoneNumber, ...rest }, context) => {
    const parsed = phoneSchema('Phone number is required').safeParse(phoneNumber ?? PhoneNumber);
    if (!parsed.success) {
      for (const issue of parsed.error.issues)
        context.addIssue({ code: 'custom', message: issue.message, path: ['phoneNumber'] });
      return z.NEVER;
    }
    return { ...rest, phoneNumber: parsed.data };
  })
  .meta({ id: 'RegisterInput' });
export type RegisterInput = z.output<typeof registerBodySchema>;

/** The /register page: the API's fields plus the confirmation and the terms box (spec §5). */
export const registerFormSchema = z
  .object({
    firstName: z.string(),
    lastName: z.string(),
    email: z.string(),
    password: z.string(),
    confirmPassword: z.string({ error: 'Please confirm your password' }),
    phoneNumber: z.string(),
    acceptTerms: z.literal('on', { error: 'You must accept the terms and conditions' }),
    addressLine1: z.string(),
    addressLine2: z.string().optional(),
    city: z.string(),
    state: z.string(),
    postalCode: z.string(),
    country: z.string(),
  })
  .superRefine((form, context) => {
    if (form.confirmPassword !== form.password) {
      context.addIssue({ code: 'custom', message: 'Passwords do not match', path: ['confirmPassword'] });
    }
  });

export const loginBodySchema = z
  .object({
    email: z
      .string({ error: 'Email is required' })
      .trim()
      .min(1, 'Email is required')
      .max(ACCOUNT_LIMITS.email, 'Email is invalid')
      .refine(hasNoNul, 'Email is invalid')
      .transform((email) => email.toLowerCase()),
    password: givenPasswordSchema('Password is required'),
  })
  .meta({ id: 'LoginInput' });
export type LoginInput = z.output<typeof loginBodySchema>;

export const forgotPasswordBodySchema = z.object({ email: emailSchema }).meta({ id: 'ForgotPasswordInput' });

export const resetPasswordBodySchema = z
  .object({
    token: z.string({ error: ACCOUNT_MESSAGES.resetLinkInvalid }).min(1, ACCOUNT_MESSAGES.resetLinkInvalid).max(200),
    newPassword: newPasswordSchema,
  })
  .meta({ id: 'ResetPasswordInput' });

export const profileUpdateSchema = z
  .object({
    firstName: requiredText('First name is required', ACCOUNT_LIMITS.name, 'First name'),
    lastName: requiredText('Last name is required', ACCOUNT_LIMITS.name, 'Last name'),
    phoneNumber: optionalPhoneSchema,
  })
  .meta({ id: 'ProfileUpdate' });
export type ProfileUpdate = z.output<typeof profileUpdateSchema>;

export const changePasswordBodySchema = z
  .object({
    currentPassword: givenPasswordSchema('Current password is required'),
    newPassword: newPasswordSchema,
  })
  .meta({ id: 'ChangePasswordInput' });

/**
 * Deleting the account confirms who asks: the current password, or nothing for an account
 * made with Google whose session signed in with Google in the last 10 minutes.
 */
export const deleteAccountBodySchema = z
  .object({
    currentPassword: z
      .string()
      .max(PASSWORD_MAX_LENGTH, `Password must be ${PASSWORD_MAX_LENGTH} characters or fewer`)
      .optional()
      .meta({ description: 'Required for an account with a password; a Google-only account confirms with Google.' }),
  })
  .meta({ id: 'DeleteAccountInput' });

/** The Change Password tab also asks for the new password twice (spec §5). */
export const changePasswordFormSchema = z
  .object({ currentPassword: z.string(), newPassword: z.string(), confirmNewPassword: z.string() })
  .superRefine((form, context) => {
    if (form.confirmNewPassword !== form.newPassword) {
      context.addIssue({ code: 'custom', message: 'New passwords do not match', path: ['confirmNewPassword'] });
    }
  });

export const addressInputSchema = z
  .object({
    addressType: z.enum(ADDRESS_TYPES, {
      error: (issue) =>
        issue.input === undefined || issue.input === ''
          ? 'Address type is required'
          : 'Address type must be Home, Work or Other',
    }),
    fullName: requiredText('Full name is required', ACCOUNT_LIMITS.name, 'Full name'),
    ...postalFields,
    phoneNumber: optionalPhoneSchema,
    isDefault: z.boolean({ error: 'isDefault must be true or false' }).optional(),
  })
  .superRefine(checkAustralianAddress)
  .transform(normaliseAustralianAddress)
  .meta({ id: 'AddressBody' });
export type AddressInput = z.output<typeof addressInputSchema>;

/** Keys that would carry a whole card number or its security code: refused, never stored or echoed. */
const CARD_SECRET_KEY = /^(card.?number|number|pan|cvv2?|cvc2?|csc|security.?code|card.?data)$/i;

/**
 * A string or whole number of 12 to 19 digits (spaces and dashes ignored), or text holding a
 * Luhn-valid card number anywhere (containsCardNumber: "4242.4242.4242.4242", "pm_4111…").
 */
function looksLikeCardNumber(value: unknown): boolean {
  const text = typeof value === 'number' && Number.isInteger(value) ? String(value) : value;
  return typeof text === 'string' && (/^\d{12,19}$/.test(text.replace(/[\s-]/g, '')) || containsCardNumber(text));
}

/**
 * Where a body carries a card number or a security code, at any depth (`card.number`,
 * `extra.0`): a key named like one, or a value that looks like a card number.
 */
function cardSecretPaths(body: Record<string, unknown>): (string | number)[][] {
  interface Step {
    key: string | number;
    parent: Step | undefined;
  }
  const pathOf = (step: Step): (string | number)[] => {
    const path: (string | number)[] = [];
    for (let at: Step | undefined = step; at; at = at.parent) path.push(at.key);
    return path.reverse();
  };
  const found: (string | number)[][] = [];
  // Iterative, with parent links instead of copied paths: a deeply nested body costs time in proportion to its size.
  const pending: { value: unknown; step: Step | undefined }[] = [{ value: body, step: undefined }];
  while (pending.length > 0) {
    const { value, step: parent } = pending.pop() as { value: unknown; step: Step | undefined };
    if (value === null || typeof value !== 'object') continue;
    const entries: [string | number, unknown][] = Array.isArray(value)
      ? value.map((item, index) => [index, item])
      : Object.entries(value);
    for (const [key, item] of entries) {
      const step: Step = { key, parent };
      const isLastFour = parent === undefined && key === 'last4Digits';
      if ((typeof key === 'string' && CARD_SECRET_KEY.test(key)) || (!isLastFour && looksLikeCardNumber(item))) {
        found.push(pathOf(step));
      } else {
        pending.push({ value: item, step });
      }
    }
  }
  return found;
}

function lastFour(label: string) {
  return z
    .string({ error: `${label} are required` })
    .trim()
    .min(1, { message: `${label} are required`, abort: true })
    .regex(/^\d{4}$/, `${label} must be exactly 4 digits`);
}

export const paymentMethodInputSchema = z
  .looseObject({
    paymentType: z.enum(PAYMENT_TYPES, {
      error: (issue) =>
        issue.input === undefined || issue.input === ''
          ? 'Payment type is required'
          : `Payment type must be one of ${PAYMENT_TYPES.join(', ')}`,
    }),
    provider: z.enum(PAYMENT_PROVIDERS, {
      error: (issue) =>
        issue.input === undefined || issue.input === ''
          ? 'Provider is required'
          : `Provider must be one of ${PAYMENT_PROVIDERS.join(', ')}`,
    }),
    last4Digits: lastFour('Last 4 digits'),
    expiryMonth: z
      .string({ error: 'Expiry month is required' })
      .min(1, { message: 'Expiry month is required', abort: true })
      .regex(/^(0[1-9]|1[0-2])$/, 'Expiry month must be 01 to 12'),
    expiryYear: z.coerce
      .number({ error: 'Expiry year is required' })
      .int('Expiry year is required')
      .refine((year) => {
        const now = new Date().getFullYear();
        return year >= now && year <= now + 9;
      }, 'Expiry year must be this year or one of the next 9'),
    paymentMethodId: optionalText('paymentMethodId', ACCOUNT_LIMITS.paymentMethodRef),
    isDefault: z.boolean({ error: 'isDefault must be true or false' }).optional(),
  })
  .superRefine((body, context) => {
    for (const path of cardSecretPaths(body)) {
      context.addIssue({ code: 'custom', message: ACCOUNT_MESSAGES.cardDataRefused, path });
    }
  })
  .transform(({ paymentType, provider, last4Digits, expiryMonth, expiryYear, paymentMethodId, isDefault }) => ({
    paymentType,
    provider,
    last4Digits,
    expiryMonth,
    expiryYear,
    paymentMethodId,
    isDefault,
  }))
  .meta({ id: 'PaymentMethodBody' });
export type PaymentMethodInput = z.output<typeof paymentMethodInputSchema>;

export const preferencesSchema = z
  .object({
    marketingEmails: z.boolean({ error: 'marketingEmails must be true or false' }),
    orderUpdateEmails: z.boolean({ error: 'orderUpdateEmails must be true or false' }),
    preferredContactMethod: z.enum(CONTACT_METHODS, {
      error: `Preferred contact method must be one of ${CONTACT_METHODS.join(', ')}`,
    }),
  })
  .meta({ id: 'Preferences' });
export type Preferences = z.output<typeof preferencesSchema>;

// ---- Responses ----

export const userSchema = z
  .object({
    id: z.number().int(),
    email: z.string(),
    firstName: z.string(),
    lastName: z.string(),
    name: z.string(),
    phoneNumber: z.string().nullable(),
    role: z.enum(['customer', 'admin']),
    createdAt: z.string(),
  })
  .meta({ id: 'User' });
export type User = z.infer<typeof userSchema>;

/** GET /api/users/summary: what every page's frame shows of the signed-in shopper (`AccountSummary`). */
export const accountSummarySchema = z
  .object({
    id: z.number().int(),
    firstName: z.string(),
    name: z.string(),
    role: z.enum(['customer', 'admin']),
    wishlist: z.array(z.number().int()),
    points: z.number().int(),
  })
  .meta({ id: 'AccountSummary' });

export const authResultSchema = z.object({ token: z.string(), user: userSchema }).meta({ id: 'AuthResult' });

export const addressSchema = z
  .object({
    id: z.number().int(),
    addressType: z.enum(ADDRESS_TYPES),
    fullName: z.string(),
    addressLine1: z.string(),
    addressLine2: z.string().nullable(),
    city: z.string(),
    state: z.string(),
    postalCode: z.string(),
    country: z.string(),
    phoneNumber: z.string().nullable(),
    isDefault: z.boolean(),
  })
  .meta({ id: 'Address' });
export type Address = z.infer<typeof addressSchema>;

export const paymentMethodSchema = z
  .object({
    id: z.number().int(),
    paymentType: z.string(),
    provider: z.string(),
    last4Digits: z.string(),
    expiryMonth: z.string(),
    expiryYear: z.number().int(),
    paymentMethodId: z.string().nullable(),
    isDefault: z.boolean(),
  })
  .meta({ id: 'PaymentMethod' });
export type PaymentMethod = z.infer<typeof paymentMethodSchema>;

export const messageSchema = z.object({ message: z.string() }).meta({ id: 'Message' });
