/**
 * The account area's field choices and limits, without zod, so pages can render
 * selects and maxLength attributes without shipping the schemas to the browser.
 */

/** What every page's frame knows of the signed-in shopper (the root loader's `account`). */
export interface AccountSummary {
  id: number;
  firstName: string;
  name: string;
  role: 'customer' | 'admin';
  /** Ids of the products on the shopper's wishlist, so hearts render filled on the server. */
  wishlist: number[];
  /** The loyalty points balance, shown in the account menu. */
  points: number;
}

export const PASSWORD_MIN_LENGTH = 6;
export const PASSWORD_MAX_LENGTH = 256;

export const ACCOUNT_LIMITS = {
  name: 100,
  email: 254,
  phone: 20,
  addressLine: 200,
  city: 100,
  state: 100,
  postalCode: 12,
  paymentMethodRef: 100,
} as const;

/** Countries the shop ships to (spec-decisions "Catalogue and pages"); the shop's own comes first. */
export const COUNTRIES = ['Australia', 'United States', 'Canada', 'United Kingdom'] as const;
export type Country = (typeof COUNTRIES)[number];

export const ADDRESS_TYPES = ['Home', 'Work', 'Other'] as const;
export type AddressType = (typeof ADDRESS_TYPES)[number];

export const PAYMENT_TYPES = ['Credit Card', 'Debit Card', 'PayPal', 'Bank Transfer'] as const;
export const PAYMENT_PROVIDERS = ['Visa', 'MasterCard', 'American Express', 'Discover', 'PayPal'] as const;

export const CONTACT_METHODS = ['email', 'phone', 'sms'] as const;
export const CONTACT_METHOD_LABELS: Record<(typeof CONTACT_METHODS)[number], string> = {
  email: 'E-mail',
  phone: 'Phone call',
  sms: 'Text message (SMS)',
};

/** Years a saved card's expiry may be in (spec §5: the current year and the next 9). */
export function expiryYears(now: Date = new Date()): number[] {
  const first = now.getFullYear();
  return Array.from({ length: 10 }, (_, index) => first + index);
}

export const ACCOUNT_MESSAGES = {
  invalidCredentials: 'Invalid email or password',
  commonPassword: 'This password is too common. Please choose one that is harder to guess.',
  duplicateEmail: 'An account with this email already exists. Try signing in instead.',
  resetLinkInvalid: 'This reset link is invalid or has expired. Please request a new one.',
  forgotPasswordSent: 'If an account exists for that email, we have sent a link to reset its password.',
  wrongCurrentPassword: 'Current password is incorrect',
  signedOut: 'Please sign in to continue',
  tooManyAttempts: 'Too many sign-in attempts. Please wait a few minutes and try again.',
  tooManyPasswordChecks: 'Too many password attempts. Please wait a few minutes and try again.',
  /** A per-address limit of the account doors (sign-in, registration, forgot and reset password). */
  tooManyRequests: 'Too many requests. Please try again shortly.',
  /** A step that needs the password, asked of an account made with Google (it has none). */
  confirmWithGoogle:
    'Your account signs in with Google and has no password. Please confirm with Google (sign in again), or set a password first.',
  staffSignInWithPassword: 'Staff accounts sign in with their e-mail and password, not with Google.',
  passwordLinkSent: 'We have e-mailed you a link to set a password. It works for one hour.',
  cardDataRefused: 'Card numbers and security codes are never stored: send only the last 4 digits',
  profileUpdated: 'Profile updated successfully',
  passwordChanged: 'Password changed successfully',
  deleteAccountConfirm: 'Are you sure you want to delete your account? This action cannot be undone.',
  deleteAddressConfirm: 'Are you sure you want to delete this address?',
  deletePaymentMethodConfirm: 'Are you sure you want to delete this payment method?',
} as const;

/**
 * A return target after sign-in: only a path on this site ("/orders?status=pending"),
 * never another origin ("//evil.example", "https://…", "/\\evil"). Anything else is "/".
 */
export function safeRedirectPath(target: string | null | undefined, fallback = '/'): string {
  if (!target?.startsWith('/') || target.startsWith('//') || target.startsWith('/\\')) return fallback;
  // Control characters and backslashes: browsers read "/\\evil" or "/\t/evil" as another host.
  if ([...target].some((character) => character < ' ' || character === '\\')) return fallback;
  try {
    const url = new URL(target, 'http://shop.invalid');
    if (url.origin !== 'http://shop.invalid') return fallback;
    // Dot segments collapse only here ('/..//evil.example' → '//evil.example'): check again.
    const path = `${url.pathname}${url.search}${url.hash}`;
    return path.startsWith('//') ? fallback : path;
  } catch {
    return fallback;
  }
}
