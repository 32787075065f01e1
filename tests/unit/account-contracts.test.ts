import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  addressInputSchema,
  changePasswordBodySchema,
  changePasswordFormSchema,
  emailSchema,
  forgotPasswordBodySchema,
  loginBodySchema,
  newPasswordSchema,
  paymentMethodInputSchema,
  preferencesSchema,
  profileUpdateSchema,
  registerBodySchema,
  registerFormSchema,
  resetPasswordBodySchema,
} from '../../contracts/account.ts';
import {
  ACCOUNT_LIMITS,
  ACCOUNT_MESSAGES,
  ADDRESS_TYPES,
  COUNTRIES,
  expiryYears,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  safeRedirectPath,
} from '../../contracts/account-fields.ts';

/** The field messages a schema gives for an input, keyed by dotted path ('' for the whole input). */
function messages(schema: z.ZodType, input: unknown): Record<string, string[]> {
  const result = schema.safeParse(input);
  if (result.success) return {};
  const found: Record<string, string[]> = {};
  for (const issue of result.error.issues) {
    const path = issue.path.join('.');
    found[path] = [...(found[path] ?? []), issue.message];
  }
  return found;
}

const THIS_YEAR = new Date().getFullYear();
const ADDRESS = {
  addressLine1: '14 Boundary Lane',
  city: 'Silverwater',
  state: 'NSW',
  postalCode: '2128',
  country: 'Australia',
};
const REGISTRATION = {
  firstName: 'Ann',
  lastName: 'Lee',
  email: 'ann@example.com',
  password: 'Harbour-Pass-42',
  PhoneNumber: '0412 345 678',
  address: ADDRESS,
};
const NEW_ADDRESS = { addressType: 'Home', fullName: 'Ann Lee', ...ADDRESS };
const CARD = {
  paymentType: 'Credit Card',
  provider: 'Visa',
  last4Digits: '4242',
  expiryMonth: '07',
  expiryYear: THIS_YEAR,
};

describe('safeRedirectPath', () => {
  it.each([
    ['/orders', '/orders'],
    ['/orders?status=pending', '/orders?status=pending'],
    ['/orders/12#items', '/orders/12#items'],
    ['/checkout', '/checkout'],
    ['/', '/'],
    ['/a/b/../c', '/a/c'],
    ['/search?term=drill%20bits&page=2', '/search?term=drill%20bits&page=2'],
    ['/%2F%2Fevil.example', '/%2F%2Fevil.example'],
  ])('keeps the same-site path %j', (target, expected) => {
    expect(safeRedirectPath(target)).toBe(expected);
  });

  it.each([
    '//evil.example',
    '//evil.example/orders',
    '///evil.example',
    '/\\evil.example',
    '/\\/evil.example',
    '\\\\evil.example',
    '\\/evil.example',
    'https://evil.example',
    'https:evil.example',
    'http://evil.example/orders',
    '/\t/evil.example',
    '/\n/evil.example',
    '/\r\n/evil.example',
    '/orders\r\nSet-Cookie: session=stolen',
    '/\u0000/evil.example',
    '/orders\\..\\..\\evil',
    'javascript:alert(document.cookie)',
    'JavaScript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    ' /orders',
    'orders',
    'evil.example',
    '',
    '.',
    '?next=/orders',
    '#/orders',
  ])('turns the hostile target %j into /', (target) => {
    expect(safeRedirectPath(target)).toBe('/');
  });

  it('answers the fallback for nothing, null or a hostile target', () => {
    expect(safeRedirectPath(undefined)).toBe('/');
    expect(safeRedirectPath(null)).toBe('/');
    expect(safeRedirectPath(null, '/profile')).toBe('/profile');
    expect(safeRedirectPath('//evil.example', '/profile')).toBe('/profile');
    expect(safeRedirectPath('/orders', '/profile')).toBe('/orders');
  });

  // Dot segments collapse after the prefix checks: "/..//evil.example" normalises to "//evil.example",
  // which a browser reads as another host (an open redirect after sign-in).
  it.each([
    '/..//evil.example',
    '/.//evil.example',
    '/a/..//evil.example',
    '/%2e%2e//evil.example',
    '/%2E//evil.example',
  ])('never leaves the site through URL normalisation of %j', (target) => {
    const result = safeRedirectPath(target);
    expect(result.startsWith('/')).toBe(true);
    expect(result.startsWith('//')).toBe(false);
    expect(new URL(result, 'https://shop.example').origin).toBe('https://shop.example');
  });
});

describe('expiryYears', () => {
  it('offers the current year and the next 9 (spec §5)', () => {
    expect(expiryYears(new Date('2030-06-15T12:00:00'))).toEqual([
      2030, 2031, 2032, 2033, 2034, 2035, 2036, 2037, 2038, 2039,
    ]);
    expect(expiryYears(new Date('2029-12-31T23:00:00'))[0]).toBe(2029);
    expect(expiryYears(new Date('2030-01-01T00:30:00'))[9]).toBe(2039);
  });

  it('defaults to today', () => {
    const years = expiryYears();
    expect(years).toHaveLength(10);
    expect(years[0]).toBe(THIS_YEAR);
    expect(years[9]).toBe(THIS_YEAR + 9);
  });

  it('agrees with the payment method schema at both ends', () => {
    const years = expiryYears();
    for (const expiryYear of years)
      expect(paymentMethodInputSchema.safeParse({ ...CARD, expiryYear }).success).toBe(true);
    for (const expiryYear of [(years[0] ?? 0) - 1, (years[9] ?? 0) + 1]) {
      expect(messages(paymentMethodInputSchema, { ...CARD, expiryYear })).toEqual({
        expiryYear: ['Expiry year must be this year or one of the next 9'],
      });
    }
  });
});

describe('field choices and limits', () => {
  it('ships to the four countries, the shop’s own first', () => {
    expect(COUNTRIES).toEqual(['Australia', 'United States', 'Canada', 'United Kingdom']);
    expect(ADDRESS_TYPES).toEqual(['Home', 'Work', 'Other']);
  });

  it('keeps the spec’s minimum password length and a maximum', () => {
    expect(PASSWORD_MIN_LENGTH).toBe(6);
    expect(PASSWORD_MAX_LENGTH).toBe(256);
    expect(newPasswordSchema.safeParse('abcdef').success).toBe(true);
    expect(messages(newPasswordSchema, 'abcde')).toEqual({ '': ['Password must be at least 6 characters'] });
    expect(newPasswordSchema.safeParse('x'.repeat(256)).success).toBe(true);
    expect(messages(newPasswordSchema, 'x'.repeat(257))).toEqual({ '': ['Password must be 256 characters or fewer'] });
    expect(messages(newPasswordSchema, undefined)).toEqual({ '': ['Password is required'] });
    // An empty password is "required", not also "too short".
    expect(messages(newPasswordSchema, '')).toEqual({ '': ['Password is required'] });
  });
});

describe('emailSchema', () => {
  it('trims and lower-cases', () => {
    expect(emailSchema.parse('  Ann.Lee@Example.COM ')).toBe('ann.lee@example.com');
  });

  it.each([
    [undefined, 'Email is required'],
    ['', 'Email is required'],
    ['   ', 'Email is required'],
    ['ann', 'Email is invalid'],
    ['ann@', 'Email is invalid'],
    ['@example.com', 'Email is invalid'],
    ['ann@example', 'Email is invalid'],
    ['ann lee@example.com', 'Email is invalid'],
    [`${'a'.repeat(250)}@example.com`, 'Email is invalid'],
    ['ann\u0000@example.com', 'Email is invalid'],
  ])('refuses %j with "%s"', (input, message) => {
    expect(messages(emailSchema, input)).toEqual({ '': [message] });
  });

  it('never passes more than the e-mail limit', () => {
    expect(ACCOUNT_LIMITS.email).toBe(254);
  });
});

describe('registerBodySchema', () => {
  it('accepts the spec’s PhoneNumber and gives phoneNumber, trimmed, with an e-mail in lower case', () => {
    const parsed = registerBodySchema.parse({ ...REGISTRATION, firstName: ' Ann ', email: 'Ann@Example.com' });
    expect(parsed).toEqual({
      firstName: 'Ann',
      lastName: 'Lee',
      email: 'ann@example.com',
      password: 'Harbour-Pass-42',
      phoneNumber: '0412 345 678',
      address: { ...ADDRESS, addressLine2: null },
    });
  });

  it('accepts phoneNumber as well, and prefers it when both are sent', () => {
    const { PhoneNumber: _spec, ...rest } = REGISTRATION;
    expect(registerBodySchema.parse({ ...rest, phoneNumber: '+61 2 9000 0000' }).phoneNumber).toBe('+61 2 9000 0000');
    expect(registerBodySchema.parse({ ...REGISTRATION, phoneNumber: '02 9000 0000' }).phoneNumber).toBe('02 9000 0000');
  });

  it('keeps the password exactly as typed (no trimming)', () => {
    expect(registerBodySchema.parse({ ...REGISTRATION, password: '  spaced pass  ' }).password).toBe('  spaced pass  ');
  });

  it.each([
    [{ firstName: undefined }, 'firstName', 'First name is required'],
    [{ firstName: null }, 'firstName', 'First name is required'],
    [{ firstName: 42 }, 'firstName', 'First name must be text'],
    [{ firstName: 'x'.repeat(101) }, 'firstName', 'First name must be 100 characters or fewer'],
    [{ lastName: '' }, 'lastName', 'Last name is required'],
    [{ email: 'nope' }, 'email', 'Email is invalid'],
    [{ password: 'short' }, 'password', 'Password must be at least 6 characters'],
    [{ PhoneNumber: undefined }, 'phoneNumber', 'Phone number is required'],
    [{ PhoneNumber: '12345' }, 'phoneNumber', 'Please enter a valid phone number, e.g. 0412 345 678'],
    [{ PhoneNumber: '1234567890123456' }, 'phoneNumber', 'Please enter a valid phone number, e.g. 0412 345 678'],
    [{ PhoneNumber: '0412-345-678x' }, 'phoneNumber', 'Please enter a valid phone number, e.g. 0412 345 678'],
    [{ address: undefined }, 'address', 'Address is required'],
    [{ address: 'somewhere' }, 'address', 'Address is required'],
    [{ address: { ...ADDRESS, addressLine1: ' ' } }, 'address.addressLine1', 'Address is required'],
    [{ address: { ...ADDRESS, city: '' } }, 'address.city', 'City is required'],
    [{ address: { ...ADDRESS, state: undefined } }, 'address.state', 'State is required'],
    [{ address: { ...ADDRESS, postalCode: '' } }, 'address.postalCode', 'Postal code is required'],
    [
      { address: { ...ADDRESS, postalCode: '1234567890123' } },
      'address.postalCode',
      'Postal code must be 12 characters or fewer',
    ],
    [{ address: { ...ADDRESS, country: '' } }, 'address.country', 'Country is required'],
    [
      { address: { ...ADDRESS, country: 'australia' } },
      'address.country',
      'Country must be one of Australia, United States, Canada, United Kingdom',
    ],
    [
      { address: { ...ADDRESS, city: 'Syd\u0000ney' } },
      'address.city',
      'City contains a character that is not allowed',
    ],
  ])('refuses %j', (change, field, message) => {
    expect(messages(registerBodySchema, { ...REGISTRATION, ...change })).toEqual({ [field]: [message] });
  });
});

describe('registerFormSchema', () => {
  const form = {
    firstName: 'Ann',
    lastName: 'Lee',
    email: 'ann@example.com',
    password: 'Harbour-Pass-42',
    confirmPassword: 'Harbour-Pass-42',
    phoneNumber: '0412 345 678',
    acceptTerms: 'on',
    addressLine1: '1 Main Street',
    city: 'Sydney',
    state: 'NSW',
    postalCode: '2000',
    country: 'Australia',
  };

  it('accepts a complete form', () => {
    expect(registerFormSchema.safeParse(form).success).toBe(true);
  });

  it.each([
    [{ confirmPassword: 'Harbour-Pass-43' }, 'confirmPassword', 'Passwords do not match'],
    [{ confirmPassword: undefined }, 'confirmPassword', 'Please confirm your password'],
    [{ acceptTerms: undefined }, 'acceptTerms', 'You must accept the terms and conditions'],
    [{ acceptTerms: 'off' }, 'acceptTerms', 'You must accept the terms and conditions'],
  ])('refuses %j', (change, field, message) => {
    expect(messages(registerFormSchema, { ...form, ...change })[field]).toEqual([message]);
  });
});

describe('sign-in and password schemas', () => {
  it('loginBodySchema lower-cases and trims the e-mail but checks no shape, so every failure looks the same', () => {
    expect(loginBodySchema.parse({ email: ' Ann@Example.COM ', password: 'x' })).toEqual({
      email: 'ann@example.com',
      password: 'x',
    });
    expect(loginBodySchema.safeParse({ email: 'not-an-email', password: 'whatever' }).success).toBe(true);
    expect(messages(loginBodySchema, {})).toEqual({ email: ['Email is required'], password: ['Password is required'] });
    expect(messages(loginBodySchema, { email: 'a@b.c', password: 'x'.repeat(257) })).toEqual({
      password: ['Password must be 256 characters or fewer'],
    });
  });

  it('forgotPasswordBodySchema needs a real e-mail', () => {
    expect(forgotPasswordBodySchema.parse({ email: 'ANN@example.com' })).toEqual({ email: 'ann@example.com' });
    expect(messages(forgotPasswordBodySchema, { email: 'ann' })).toEqual({ email: ['Email is invalid'] });
  });

  it('resetPasswordBodySchema answers a missing token with the invalid-link message', () => {
    expect(messages(resetPasswordBodySchema, { newPassword: 'Harbour-Pass-42' })).toEqual({
      token: [ACCOUNT_MESSAGES.resetLinkInvalid],
    });
    expect(messages(resetPasswordBodySchema, { token: '', newPassword: 'Harbour-Pass-42' })).toEqual({
      token: [ACCOUNT_MESSAGES.resetLinkInvalid],
    });
    expect(messages(resetPasswordBodySchema, { token: 'abc', newPassword: 'short' })).toEqual({
      newPassword: ['Password must be at least 6 characters'],
    });
    expect(resetPasswordBodySchema.safeParse({ token: 'x'.repeat(201), newPassword: 'Harbour-Pass-42' }).success).toBe(
      false,
    );
  });

  it('changePasswordBodySchema names both fields', () => {
    expect(messages(changePasswordBodySchema, {})).toEqual({
      currentPassword: ['Current password is required'],
      newPassword: ['Password is required'],
    });
    expect(messages(changePasswordBodySchema, { currentPassword: 'a', newPassword: 'abc' })).toEqual({
      newPassword: ['Password must be at least 6 characters'],
    });
  });

  it('changePasswordFormSchema wants the new password twice', () => {
    expect(
      messages(changePasswordFormSchema, { currentPassword: 'a', newPassword: 'abcdef', confirmNewPassword: 'abcdeg' }),
    ).toEqual({ confirmNewPassword: ['New passwords do not match'] });
    expect(
      changePasswordFormSchema.safeParse({ currentPassword: 'a', newPassword: 'abcdef', confirmNewPassword: 'abcdef' })
        .success,
    ).toBe(true);
  });
});

describe('profileUpdateSchema', () => {
  it('drops the e-mail and turns a blank phone number into null', () => {
    expect(
      profileUpdateSchema.parse({ firstName: 'Ann', lastName: 'Lee', phoneNumber: '  ', email: 'x@example.com' }),
    ).toEqual({ firstName: 'Ann', lastName: 'Lee', phoneNumber: null });
  });

  it.each([
    [{ firstName: '', lastName: 'Lee' }, { firstName: ['First name is required'] }],
    [{ firstName: 'Ann' }, { lastName: ['Last name is required'] }],
    [
      { firstName: 'Ann', lastName: 'Lee', phoneNumber: 'abc' },
      { phoneNumber: ['Please enter a valid phone number, e.g. 0412 345 678'] },
    ],
    [{ firstName: 'Ann', lastName: 'Lee', phoneNumber: 12 }, { phoneNumber: ['Phone number must be text'] }],
  ])('refuses %j', (input, expected) => {
    expect(messages(profileUpdateSchema, input)).toEqual(expected);
  });
});

describe('addressInputSchema', () => {
  it('accepts every address type and country', () => {
    for (const addressType of ADDRESS_TYPES) {
      for (const country of COUNTRIES) {
        expect(addressInputSchema.safeParse({ ...NEW_ADDRESS, addressType, country }).success).toBe(true);
      }
    }
  });

  it.each([
    [{ addressType: undefined }, 'addressType', 'Address type is required'],
    [{ addressType: 'home' }, 'addressType', 'Address type must be Home, Work or Other'],
    [{ fullName: '  ' }, 'fullName', 'Full name is required'],
    [{ addressLine1: undefined }, 'addressLine1', 'Address is required'],
    [{ addressLine2: 'x'.repeat(201) }, 'addressLine2', 'Address line 2 must be 200 characters or fewer'],
    [{ city: undefined }, 'city', 'City is required'],
    [{ state: '' }, 'state', 'State is required'],
    [{ postalCode: undefined }, 'postalCode', 'Postal code is required'],
    [{ country: undefined }, 'country', 'Country is required'],
    [{ country: 'France' }, 'country', 'Country must be one of Australia, United States, Canada, United Kingdom'],
    [{ isDefault: 'yes' }, 'isDefault', 'isDefault must be true or false'],
  ])('refuses %j', (change, field, message) => {
    expect(messages(addressInputSchema, { ...NEW_ADDRESS, ...change })).toEqual({ [field]: [message] });
  });
});

describe('paymentMethodInputSchema', () => {
  it('keeps only the fields a saved method has, and reads the year as a number', () => {
    expect(
      paymentMethodInputSchema.parse({
        ...CARD,
        expiryYear: String(THIS_YEAR + 1),
        nickname: 'work card',
        isDefault: true,
      }),
    ).toEqual({ ...CARD, expiryYear: THIS_YEAR + 1, paymentMethodId: null, isDefault: true });
  });

  it.each([
    [{ last4Digits: undefined }, 'last4Digits', 'Last 4 digits are required'],
    [{ last4Digits: '' }, 'last4Digits', 'Last 4 digits are required'],
    [{ last4Digits: '424' }, 'last4Digits', 'Last 4 digits must be exactly 4 digits'],
    [{ last4Digits: '４２４２' }, 'last4Digits', 'Last 4 digits must be exactly 4 digits'],
    [{ expiryMonth: '1' }, 'expiryMonth', 'Expiry month must be 01 to 12'],
    [{ expiryMonth: '13' }, 'expiryMonth', 'Expiry month must be 01 to 12'],
    [{ expiryMonth: '' }, 'expiryMonth', 'Expiry month is required'],
    [{ expiryYear: 'soon' }, 'expiryYear', 'Expiry year is required'],
    [{ expiryYear: THIS_YEAR + 0.5 }, 'expiryYear', 'Expiry year is required'],
    [{ expiryYear: THIS_YEAR + 10 }, 'expiryYear', 'Expiry year must be this year or one of the next 9'],
    [
      { paymentType: 'Cash' },
      'paymentType',
      'Payment type must be one of Credit Card, Debit Card, PayPal, Bank Transfer',
    ],
    [{ provider: undefined }, 'provider', 'Provider is required'],
  ])('refuses %j', (change, field, message) => {
    expect(messages(paymentMethodInputSchema, { ...CARD, ...change })).toEqual({ [field]: [message] });
  });

  it.each([
    [{ cardNumber: '4242424242424242' }, 'cardNumber'],
    [{ CardNumber: '4242' }, 'CardNumber'],
    [{ 'card-number': '4242 4242 4242 4242' }, 'card-number'],
    [{ number: '4242424242424242' }, 'number'],
    [{ pan: '4242424242424242' }, 'pan'],
    [{ cvv: '123' }, 'cvv'],
    [{ CVV2: '123' }, 'CVV2'],
    [{ cvc: '123' }, 'cvc'],
    [{ csc: '123' }, 'csc'],
    [{ security_code: '123' }, 'security_code'],
    [{ cardData: null }, 'cardData'],
    [{ paymentMethodId: '4242-4242-4242-4242' }, 'paymentMethodId'],
    [{ memo: '378282246310005' }, 'memo'],
    [{ memo: 4111111111111111 }, 'memo'],
    [{ card: { number: '4242424242424242' } }, 'card.number'],
    [{ card: { details: [{ cvc: '123' }] } }, 'card.details.0.cvc'],
    [{ extras: ['note', '5555 5555 5555 4444'] }, 'extras.1'],
  ])('refuses a card number or security code in %j', (change, field) => {
    expect(messages(paymentMethodInputSchema, { ...CARD, ...change })[field]).toEqual([
      ACCOUNT_MESSAGES.cardDataRefused,
    ]);
  });

  it('does not mistake short numbers for card numbers', () => {
    expect(paymentMethodInputSchema.safeParse({ ...CARD, paymentMethodId: 'pm_12345678901' }).success).toBe(true);
    expect(paymentMethodInputSchema.safeParse({ ...CARD, memo: 12345678901 }).success).toBe(true);
  });
});

describe('preferencesSchema', () => {
  it('needs all three choices', () => {
    expect(
      preferencesSchema.parse({ marketingEmails: true, orderUpdateEmails: false, preferredContactMethod: 'sms' }),
    ).toEqual({ marketingEmails: true, orderUpdateEmails: false, preferredContactMethod: 'sms' });
    expect(messages(preferencesSchema, {})).toEqual({
      marketingEmails: ['marketingEmails must be true or false'],
      orderUpdateEmails: ['orderUpdateEmails must be true or false'],
      preferredContactMethod: ['Preferred contact method must be one of email, phone, sms'],
    });
    expect(
      messages(preferencesSchema, { marketingEmails: 'true', orderUpdateEmails: 1, preferredContactMethod: 'Email' }),
    ).toEqual({
      marketingEmails: ['marketingEmails must be true or false'],
      orderUpdateEmails: ['orderUpdateEmails must be true or false'],
      preferredContactMethod: ['Preferred contact method must be one of email, phone, sms'],
    });
  });
});
