import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addressInputSchema,
  changePasswordBodySchema,
  emailSchema,
  forgotPasswordBodySchema,
  loginBodySchema,
  paymentMethodInputSchema,
  preferencesSchema,
  profileUpdateSchema,
  registerBodySchema,
  resetPasswordBodySchema,
} from '../../contracts/account.ts';
import { ACCOUNT_MESSAGES, safeRedirectPath } from '../../contracts/account-fields.ts';

/* Property tests of the account contracts: the return-path guard and the input schemas. */

const BASE = 'https://shop.example';
const THIS_YEAR = new Date().getFullYear();
const CARD = {
  paymentType: 'Credit Card',
  provider: 'Visa',
  last4Digits: '4242',
  expiryMonth: '07',
  expiryYear: THIS_YEAR,
};

/** Strings an attacker would hand to ?redirectTo=: slashes, backslashes, schemes, dot segments, controls. */
const hostileTarget = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary' }),
  fc.webUrl(),
  fc
    .array(
      fc.constantFrom(
        '/',
        '//',
        '\\',
        '/\\',
        '.',
        '..',
        '%2e',
        '%2E%2e',
        '%2f',
        '%5c',
        ':',
        '@',
        '?',
        '#',
        '\t',
        '\n',
        '\r',
        '\u0000',
        ' ',
        '\u3000',
        'evil.example',
        'javascript:',
        'https:',
        'orders',
        '%',
        '\u2215',
        '\uff0f',
      ),
      { maxLength: 10 },
    )
    .map((parts) => parts.join('')),
  // Dot segments (plain or percent-encoded) followed by more slashes: they collapse after the prefix checks.
  fc
    .tuple(
      fc.constantFrom('/', '/..', '/.', '/a/..', '/%2e%2e', '/%2E', '/.%2e'),
      fc.constantFrom('', '/', '//', '/\\', '\\'),
      fc.string(),
    )
    .map(([prefix, slashes, rest]) => prefix + slashes + rest),
);

describe('safeRedirectPath (properties)', () => {
  it('always answers a path on this site: starts with "/", never "//" or "/\\", no control characters', () => {
    fc.assert(
      fc.property(hostileTarget, (target) => {
        const result = safeRedirectPath(target);
        expect(result.startsWith('/')).toBe(true);
        expect(result.startsWith('//')).toBe(false);
        expect(result.startsWith('/\\')).toBe(false);
        expect([...result].some((character) => character < ' ' || character === '\\')).toBe(false);
        expect(new URL(result, BASE).origin).toBe(BASE);
      }),
      { numRuns: 2000 },
    );
  });

  it('is stable: a returned path passes through unchanged', () => {
    fc.assert(
      fc.property(hostileTarget, (target) => {
        const once = safeRedirectPath(target);
        expect(safeRedirectPath(once)).toBe(once);
      }),
      { numRuns: 1000 },
    );
  });

  it('keeps ordinary same-site paths, queries and fragments as they are', () => {
    const segment = fc.stringMatching(/^[a-z0-9][a-z0-9-]{0,11}$/);
    fc.assert(
      fc.property(
        fc.array(segment, { maxLength: 5 }),
        fc.option(fc.stringMatching(/^[a-z]{1,8}=[a-z0-9]{0,8}$/), { nil: undefined }),
        (segments, query) => {
          const path = `/${segments.join('/')}${query ? `?${query}` : ''}`;
          expect(safeRedirectPath(path)).toBe(path);
        },
      ),
    );
  });

  it('answers the given fallback whenever the target is not a same-site path', () => {
    fc.assert(
      fc.property(fc.string(), (host) => {
        expect(safeRedirectPath(`//${host}`, '/profile')).toBe('/profile');
        expect(safeRedirectPath(`https://${host}`, '/profile')).toBe('/profile');
      }),
    );
  });
});

const anyJson = fc.oneof(fc.anything(), fc.jsonValue(), fc.object());

describe('account schemas (properties)', () => {
  it.each([
    ['registerBodySchema', registerBodySchema],
    ['loginBodySchema', loginBodySchema],
    ['forgotPasswordBodySchema', forgotPasswordBodySchema],
    ['resetPasswordBodySchema', resetPasswordBodySchema],
    ['profileUpdateSchema', profileUpdateSchema],
    ['changePasswordBodySchema', changePasswordBodySchema],
    ['addressInputSchema', addressInputSchema],
    ['paymentMethodInputSchema', paymentMethodInputSchema],
    ['preferencesSchema', preferencesSchema],
  ] as const)('%s never throws, and every refusal has a non-empty message', (_name, schema) => {
    fc.assert(
      fc.property(anyJson, (input) => {
        const result = schema.safeParse(input);
        if (!result.success) {
          expect(result.error.issues.length).toBeGreaterThan(0);
          for (const issue of result.error.issues) {
            expect(typeof issue.message).toBe('string');
            expect(issue.message.length).toBeGreaterThan(0);
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  it('emailSchema only ever gives a trimmed, lower-case e-mail of at most 254 characters', () => {
    fc.assert(
      fc.property(fc.oneof(fc.emailAddress(), fc.string()), fc.constantFrom('', ' ', '  '), (email, pad) => {
        const result = emailSchema.safeParse(`${pad}${email.toUpperCase()}${pad}`);
        if (result.success) {
          expect(result.data).toBe(result.data.trim().toLowerCase());
          expect(result.data.length).toBeLessThanOrEqual(254);
          expect(result.data.includes('\u0000')).toBe(false);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('paymentMethodInputSchema refuses a card number hidden anywhere in the body, and never outputs it', () => {
    const cardNumber = fc
      .tuple(fc.integer({ min: 12, max: 19 }), fc.constantFrom('', ' ', '-'))
      .chain(([length, separator]) =>
        fc
          .array(fc.integer({ min: 0, max: 9 }), { minLength: length, maxLength: length })
          .map((digits) => digits.join('').replace(/(\d{4})(?=\d)/g, `$1${separator}`)),
      );
    const key = fc.stringMatching(/^[a-z][a-zA-Z]{0,10}$/).filter((name) => !(name in CARD));
    fc.assert(
      fc.property(fc.array(key, { minLength: 1, maxLength: 4 }), cardNumber, fc.boolean(), (path, number, inArray) => {
        let hidden: unknown = inArray ? ['note', number] : number;
        for (const name of [...path].reverse().slice(0, -1)) hidden = { [name]: hidden };
        const body = { ...CARD, [path[0] as string]: hidden };
        const result = paymentMethodInputSchema.safeParse(body);
        expect(result.success).toBe(false);
        const refusals = result.error?.issues.filter((issue) => issue.message === ACCOUNT_MESSAGES.cardDataRefused);
        expect(refusals?.length).toBeGreaterThan(0);
        expect(refusals?.[0]?.path[0]).toBe(path[0]);
      }),
      { numRuns: 300 },
    );
  });

  it('paymentMethodInputSchema outputs only the fields a saved method has', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue(), { maxKeys: 5 }), (extra) => {
        const result = paymentMethodInputSchema.safeParse({ ...extra, ...CARD });
        if (result.success) {
          expect(Object.keys(result.data).sort()).toEqual(
            [
              'expiryMonth',
              'expiryYear',
              'isDefault',
              'last4Digits',
              'paymentMethodId',
              'paymentType',
              'provider',
            ].sort(),
          );
        }
      }),
      { numRuns: 300 },
    );
  });
});
