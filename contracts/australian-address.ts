import type { z } from 'zod';
import { ACCOUNT_LIMITS } from './account-fields.ts';

/*
 * Australian addresses (issue 22): when the country is Australia the state is one of the eight
 * states and territories (stored as its code; the API also takes the full name) and the
 * postcode is four digits. Shared by the checkout, registration and address-book schemas, and
 * by their forms (the State select). No zod values here, so pages can import the lists.
 */

export const AU_STATES = [
  { code: 'NSW', name: 'New South Wales' },
  { code: 'VIC', name: 'Victoria' },
  { code: 'QLD', name: 'Queensland' },
  { code: 'WA', name: 'Western Australia' },
  { code: 'SA', name: 'South Australia' },
  { code: 'TAS', name: 'Tasmania' },
  { code: 'ACT', name: 'Australian Capital Territory' },
  { code: 'NT', name: 'Northern Territory' },
] as const;
export type AustralianState = (typeof AU_STATES)[number]['code'];

export const AUSTRALIAN_ADDRESS_MESSAGES = {
  state: 'Please choose a state or territory',
  postcode: 'Please enter a 4-digit Australian postcode',
} as const;

/** "nsw", "New South Wales", " NSW " → "NSW"; anything else → null. */
export function australianStateCode(value: string): AustralianState | null {
  const text = value.trim().replace(/\s+/g, ' ').replace(/\.$/, '').toLowerCase();
  const found = AU_STATES.find((state) => state.code.toLowerCase() === text || state.name.toLowerCase() === text);
  return found?.code ?? null;
}

export function isAustralianPostcode(value: string): boolean {
  return /^\d{4}$/.test(value.trim());
}

interface PostalAddress {
  state: string;
  postalCode: string;
  country: string;
}

/**
 * The Australian rules as a zod `superRefine` of an address object whose fields already
 * passed their own checks (so "State is required" and "Postal code is required" stay the
 * spec's messages for blank fields). Paths are relative to the address.
 */
export function checkAustralianAddress(address: PostalAddress, context: z.core.$RefinementCtx): void {
  if (address.country !== 'Australia') return;
  // zod runs this even when a field failed its own check (blank, too long): that field keeps its one message.
  const passed = (value: unknown, max: number): value is string =>
    typeof value === 'string' && value.trim() !== '' && value.trim().length <= max && !value.includes('\u0000');
  if (passed(address.state, ACCOUNT_LIMITS.state) && australianStateCode(address.state) === null)
    context.addIssue({ code: 'custom', path: ['state'], message: AUSTRALIAN_ADDRESS_MESSAGES.state });
  if (passed(address.postalCode, ACCOUNT_LIMITS.postalCode) && !isAustralianPostcode(address.postalCode))
    context.addIssue({ code: 'custom', path: ['postalCode'], message: AUSTRALIAN_ADDRESS_MESSAGES.postcode });
}

/** After `checkAustralianAddress`: an Australian state is stored as its code ("Victoria" → "VIC"). */
export function normaliseAustralianAddress<T extends PostalAddress>(address: T): T {
  if (address.country !== 'Australia') return address;
  return {
    ...address,
    state: australianStateCode(address.state) ?? address.state,
    postalCode: address.postalCode.trim(),
  };
}
