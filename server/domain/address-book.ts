import type { Address, AddressInput, PaymentMethod, PaymentMethodInput } from '../../contracts/account.ts';
import { ACCOUNT_MESSAGES, type ADDRESS_TYPES } from '../../contracts/account-fields.ts';
import { containsCardNumber } from '../../contracts/card-numbers.ts';
import type { Database } from '../../db/client.ts';
import { type AddressRow, addresses, type PaymentMethodRow, paymentMethods } from '../../db/schema.ts';
import { ValidationError } from './errors.ts';
import { createOwnedRecords } from './owned-records.ts';

function toAddress(row: AddressRow): Address {
  return {
    id: row.id,
    addressType: row.addressType as (typeof ADDRESS_TYPES)[number],
    fullName: row.fullName,
    addressLine1: row.addressLine1,
    addressLine2: row.addressLine2,
    city: row.city,
    state: row.state,
    postalCode: row.postalCode,
    country: row.country,
    phoneNumber: row.phoneNumber,
    isDefault: row.isDefault,
  };
}

function toPaymentMethod(row: PaymentMethodRow): PaymentMethod {
  return {
    id: row.id,
    paymentType: row.paymentType,
    provider: row.provider,
    last4Digits: row.last4Digits,
    expiryMonth: row.expiryMonth,
    expiryYear: row.expiryYear,
    paymentMethodId: row.paymentMethodRef,
    isDefault: row.isDefault,
  };
}

/** The shopper's saved addresses (spec §2 /addresses, §7 /addresses). */
export function createAddressBook(db: Database) {
  const records = createOwnedRecords(db, addresses, 'Address not found');
  const values = ({ isDefault: _isDefault, ...input }: AddressInput) => input;
  return {
    list: async (userId: number) => (await records.list(userId)).map(toAddress),
    get: async (userId: number, id: number) => toAddress(await records.get(userId, id)),
    create: async (userId: number, input: AddressInput) =>
      toAddress(await records.create(userId, values(input), input.isDefault === true)),
    update: async (userId: number, id: number, input: AddressInput) =>
      toAddress(await records.update(userId, id, values(input), input.isDefault === true)),
    remove: (userId: number, id: number) => records.remove(userId, id),
    setDefault: async (userId: number, id: number) => toAddress(await records.setDefault(userId, id)),
  };
}

/**
 * Saved payment methods: provider, type, last 4 digits and expiry only. The schema has
 * already refused any body carrying a card number or a security code; a card number in any
 * text field is refused here too (400, ACCOUNT_MESSAGES.cardDataRefused).
 */
export function createPaymentMethods(db: Database) {
  const records = createOwnedRecords(db, paymentMethods, 'Payment method not found');
  const values = ({ isDefault: _isDefault, paymentMethodId, ...input }: PaymentMethodInput) => {
    // The schema refused these already; checked again here so no other caller can store one.
    const texts = { ...input, paymentMethodId };
    const carrying = Object.keys(texts).filter((field) => {
      const value = texts[field as keyof typeof texts];
      return typeof value === 'string' && containsCardNumber(value);
    });
    if (carrying.length > 0) {
      throw new ValidationError(
        ACCOUNT_MESSAGES.cardDataRefused,
        Object.fromEntries(carrying.map((field) => [field, [ACCOUNT_MESSAGES.cardDataRefused]])),
      );
    }
    return { ...input, paymentMethodRef: paymentMethodId };
  };
  return {
    list: async (userId: number) => (await records.list(userId)).map(toPaymentMethod),
    get: async (userId: number, id: number) => toPaymentMethod(await records.get(userId, id)),
    create: async (userId: number, input: PaymentMethodInput) =>
      toPaymentMethod(await records.create(userId, values(input), input.isDefault === true)),
    update: async (userId: number, id: number, input: PaymentMethodInput) =>
      toPaymentMethod(await records.update(userId, id, values(input), input.isDefault === true)),
    remove: (userId: number, id: number) => records.remove(userId, id),
    setDefault: async (userId: number, id: number) => toPaymentMethod(await records.setDefault(userId, id)),
  };
}
