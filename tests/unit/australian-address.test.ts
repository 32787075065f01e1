import { describe, expect, it } from 'vitest';
import { addressInputSchema, registerBodySchema } from '../../contracts/account.ts';
import { AUSTRALIAN_ADDRESS_MESSAGES, australianStateCode } from '../../contracts/australian-address.ts';
import { carrierName, trackingUrl } from '../../contracts/fulfilment.ts';
import { shippingAddressSchema } from '../../contracts/orders.ts';

/* Issue 22: Australian states and postcodes in every address schema; carriers' tracking links. */

const ADDRESS = {
  fullName: 'Ann Lee',
  addressLine1: '1 Main Street',
  city: 'Hobart',
  state: 'TAS',
  postalCode: '7000',
  country: 'Australia',
};

describe('australianStateCode', () => {
  it.each([
    ['NSW', 'NSW'],
    ['nsw', 'NSW'],
    [' New South Wales ', 'NSW'],
    ['victoria', 'VIC'],
    ['Australian  Capital Territory', 'ACT'],
    ['Northern Territory', 'NT'],
    ['Sydney', null],
    ['N.S.W', null],
  ])('%j → %j', (given, code) => {
    expect(australianStateCode(given)).toBe(code);
  });
});

describe('the address schemas', () => {
  it('store an Australian state as its code and refuse a state or postcode that is not Australian', () => {
    expect(shippingAddressSchema.parse({ ...ADDRESS, state: 'Tasmania' }).state).toBe('TAS');
    const wrong = shippingAddressSchema.safeParse({ ...ADDRESS, state: 'Ontario', postalCode: '7000-1' });
    expect(wrong.success).toBe(false);
    expect(wrong.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([
      ['state', AUSTRALIAN_ADDRESS_MESSAGES.state],
      ['postalCode', AUSTRALIAN_ADDRESS_MESSAGES.postcode],
    ]);
  });

  it('leave other countries’ states and postcodes as written', () => {
    const canadian = { ...ADDRESS, state: 'Ontario', postalCode: 'M5V 3L9', country: 'Canada' };
    expect(shippingAddressSchema.parse(canadian)).toMatchObject({ state: 'Ontario', postalCode: 'M5V 3L9' });
    expect(addressInputSchema.parse({ ...canadian, addressType: 'Home' }).state).toBe('Ontario');
  });

  it('hold registration and the address book to the same rules', () => {
    const { fullName: _, ...postal } = ADDRESS;
    const registration = {
      firstName: 'Ann',
      lastName: 'Lee',
      email: 'ann@example.com',
      password: 'a-long-pass-phrase',
      phoneNumber: '0412 345 678',
    };
    expect(
      registerBodySchema.parse({ ...registration, address: { ...postal, state: 'queensland', postalCode: '4000' } })
        .address.state,
    ).toBe('QLD');
    expect(registerBodySchema.safeParse({ ...registration, address: { ...postal, postalCode: '700' } }).success).toBe(
      false,
    );
    expect(addressInputSchema.safeParse({ ...ADDRESS, addressType: 'Home', state: 'Perth' }).success).toBe(false);
  });
});

describe('carriers', () => {
  it('link a tracking number to the carrier’s page, and "other" to none', () => {
    expect(trackingUrl('australia-post', 'AB 123')).toBe('https://auspost.com.au/mypost/track/details/AB%20123');
    expect(trackingUrl('couriers-please', 'CP1')).toBe('https://www.couriersplease.com.au/tools-track/no/CP1');
    expect(trackingUrl('other', 'X123')).toBeNull();
    expect(trackingUrl(null, 'X123')).toBeNull();
    expect(carrierName('startrack')).toBe('StarTrack');
  });
});
