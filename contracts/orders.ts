import { z } from 'zod';
import { emailSchema, optionalPhoneSchema } from './account.ts';
import { COUNTRIES } from './account-fields.ts';
import { checkAustralianAddress, normaliseAustralianAddress } from './australian-address.ts';
import { passesLuhn } from './card-numbers.ts';
import { FULFILMENT_METHODS, fulfilmentRecordSchema } from './fulfilment.ts';
import { numberIdSchema, parseId } from './params.ts';

/*
 * The checkout's inputs (spec §5 texts) and the order's shape (spec §3), shared by the
 * checkout page and `POST /api/orders`.
 */

export const CARD_MESSAGES = {
  number: 'Please enter a valid 16-digit card number',
  name: 'Please enter the name on your card',
  expiry: 'Please enter a valid expiry date (MM/YY)',
  cvv: 'Please enter a valid 3-digit CVV',
} as const;

export const ORDER_MESSAGES = {
  declined: 'Payment failed. Please try again or use a different card.',
  network: 'Network error. Please check your connection and try again.',
  failed: 'Failed to place order. Please try again.',
  /** The same checkout session's order is still being paid for (issue 24): 409, try again shortly. */
  inProgress: 'Order in progress',
  /** A reservation's payment is in flight: the order cannot be cancelled or moved yet. */
  paymentInFlight: 'This order’s payment is still being processed. Please try again in a moment.',
  placed: 'Order placed successfully',
  idempotencyMismatch:
    'This checkout session was already used for a different order. Please reload the checkout and try again.',
  notFound: 'The requested order could not be found',
  cannotCancel: 'Only orders that are pending or processing can be cancelled.',
  alreadyCancelled: 'This order has already been cancelled.',
  returnOnlySucceeded: 'Returns can be requested only for orders that have been fulfilled.',
  returnAlreadyRequested: 'A return has already been requested for this order.',
  noInvoiceWhenCancelled:
    'This order was cancelled, so it has no tax invoice. Its refund, if any, is on its adjustment note.',
  adjustmentNoteNotFound: 'The requested adjustment note could not be found',
} as const;

/** Country codes the old client sends (spec §5: US, CA, UK, AU) read as the names the shop stores. */
const COUNTRY_CODES: Record<string, (typeof COUNTRIES)[number]> = {
  AU: 'Australia',
  US: 'United States',
  CA: 'Canada',
  UK: 'United Kingdom',
  GB: 'United Kingdom',
};

function required(message: string, max: number) {
  return z
    .string({ error: message })
    .trim()
    .min(1, message)
    .max(max, `Must be ${max} characters or fewer`)
    .refine((value) => !value.includes('\u0000'), 'Contains a character that is not allowed');
}

/** An address as an order stores and answers it (the Order's `shippingAddress`). */
export const shippingAddressFieldsSchema = z
  .object({
    fullName: required('Full name is required', 100),
    addressLine1: required('Address is required', 200),
    addressLine2: z
      .string({ error: 'Address line 2 must be text' })
      .trim()
      .max(200, 'Must be 200 characters or fewer')
      .nullish()
      .transform((value) => value || null),
    city: required('City is required', 100),
    state: required('State is required', 100),
    postalCode: required('Postal code is required', 12),
    country: z
      .string({ error: 'Country is required' })
      .trim()
      .transform((value) => COUNTRY_CODES[value.toUpperCase()] ?? value)
      .pipe(z.enum(COUNTRIES, { error: `Country must be one of ${COUNTRIES.join(', ')}` })),
  })
  .meta({ id: 'ShippingAddress' });

/** An address as a shopper gives it: in Australia a state or territory (stored as its code) and a 4-digit postcode. */
export const shippingAddressSchema = shippingAddressFieldsSchema
  .superRefine(checkAustralianAddress)
  .transform(normaliseAustralianAddress);
export type ShippingAddress = z.output<typeof shippingAddressSchema>;

/** Luhn's check digit (contracts/card-numbers.ts), here too for the card form's callers. */
export { passesLuhn };

/** "04/29" → still valid at the end of April 2029. */
export function isExpiryValid(expiry: string, now: Date = new Date()): boolean {
  const match = /^(0[1-9]|1[0-2])\/(\d{2})$/.exec(expiry);
  if (!match) return false;
  const month = Number(match[1]);
  const year = 2000 + Number(match[2]);
  const current = now.getFullYear() * 12 + now.getMonth();
  return year * 12 + (month - 1) >= current && year <= now.getFullYear() + 20;
}

/** The card form (spec §3 "Card form", §5 texts): 16 digits (spaces ignored), name, MM/YY, 3-digit CVV. */
export const cardDataSchema = z
  .object({
    Number: z
      .string({ error: CARD_MESSAGES.number })
      .max(19, CARD_MESSAGES.number)
      .transform((value) => value.replace(/\s/g, ''))
      .refine((digits) => /^\d{16}$/.test(digits) && passesLuhn(digits), CARD_MESSAGES.number),
    Name: required(CARD_MESSAGES.name, 100),
    Expiry: z
      .string({ error: CARD_MESSAGES.expiry })
      .trim()
      .refine((value) => isExpiryValid(value), CARD_MESSAGES.expiry),
    Cvc: z
      .string({ error: CARD_MESSAGES.cvv })
      .trim()
      .regex(/^\d{3}$/, CARD_MESSAGES.cvv),
  })
  .meta({ id: 'CardData' });
export type CardData = z.output<typeof cardDataSchema>;

/** A variant id (size, colour, pack) of the line's product; absent or null for the product itself. */
const variantIdSchema = numberIdSchema('variantId must be a variant id')
  .nullish()
  .transform((value) => value ?? null);

export const orderLineInputSchema = z.object({
  variantId: variantIdSchema,
  productId: numberIdSchema('productId must be a product id'),
  quantity: z
    .number({ error: 'quantity must be a whole number' })
    .int('quantity must be a whole number')
    .min(1, 'quantity must be at least 1')
    .max(999, 'quantity must be 999 or fewer'),
  // What the client believed; ignored: the server prices every line from the database.
  productName: z.unknown().optional(),
  unitPrice: z.unknown().optional(),
  imageUrl: z.unknown().optional(),
});

const SAVED_METHOD_ID_MESSAGE = 'paymentMethodId must be the id of a saved payment method';

/** A saved payment method's id, as a number or a string of digits. */
const savedPaymentMethodIdSchema = z.union(
  [
    numberIdSchema(SAVED_METHOD_ID_MESSAGE),
    z
      .string()
      .refine((value) => parseId(value) !== null)
      .transform((value) => parseId(value) as number),
  ],
  { error: SAVED_METHOD_ID_MESSAGE },
);

/**
 * `POST /api/orders` (spec §7). `sessionId` is the idempotency key. Pay with `cardData`, or
 * with `cardData: null` and `paymentMethodId` naming one of the shopper's saved methods.
 */
export const placeOrderSchema = z
  .object({
    sessionId: z
      .string({ error: 'sessionId is required' })
      .trim()
      // A blank key is "required", not also "may contain only …".
      .min(8, { error: 'sessionId is required', abort: true })
      .max(100, { error: 'sessionId must be 100 characters or fewer', abort: true })
      .regex(/^[A-Za-z0-9_.:-]+$/, 'sessionId may contain only letters, digits and _ . : -'),
    userEmail: emailSchema,
    orderItems: z
      .array(orderLineInputSchema, { error: 'orderItems must be a list' })
      .min(1, 'Your cart is empty')
      .max(100, 'An order can have at most 100 lines'),
    paymentMethod: z.literal('credit_card', { error: "paymentMethod must be 'credit_card'" }).default('credit_card'),
    // Read only when `cardData` is null (checked below): beside a card the spec's old client sends a
    // fixed test-card value (`pm_card_visa`), its shortcut, which is ignored whatever it holds.
    paymentMethodId: z
      .unknown()
      .optional()
      .meta({ description: "With `cardData: null`, the id of one of the shopper's saved payment methods" }),
    cardData: cardDataSchema.nullish(),
    /** Delivered to `shippingAddress` (the spec's body), or collected at the store: no address, no delivery charge. */
    fulfilment: z.enum(FULFILMENT_METHODS, { error: "fulfilment must be 'delivery' or 'collect'" }).default('delivery'),
    /** The phone the courier or the store calls; absent: the account's phone. */
    contactPhone: optionalPhoneSchema.optional().transform((value) => value ?? null),
    shippingAddress: shippingAddressSchema.nullish(),
  })
  .superRefine((body, context) => {
    if (body.fulfilment === 'delivery' && !body.shippingAddress) {
      context.addIssue({ code: 'custom', path: ['shippingAddress'], message: 'A delivery needs a shipping address' });
    }
    if (!body.cardData && !savedPaymentMethodIdSchema.nullish().safeParse(body.paymentMethodId).success) {
      context.addIssue({ code: 'custom', path: ['paymentMethodId'], message: SAVED_METHOD_ID_MESSAGE });
      return;
    }
    if (!body.cardData && (body.paymentMethodId === null || body.paymentMethodId === undefined)) {
      context.addIssue({
        code: 'custom',
        path: ['cardData'],
        message: 'Enter a card, or choose a saved payment method',
      });
    }
  })
  // A card pays: any paymentMethodId beside it is dropped, so it is not part of the idempotency key's request either.
  .transform(({ paymentMethodId, ...body }) => ({
    ...body,
    paymentMethodId: body.cardData ? null : (savedPaymentMethodIdSchema.nullish().parse(paymentMethodId) ?? null),
  }))
  .meta({ id: 'PlaceOrderInput' });
export type PlaceOrderInput = z.output<typeof placeOrderSchema>;

export const ORDER_STATUS_FILTERS = ['all', 'succeeded', 'pending', 'processing', 'cancelled'] as const;
export const ORDER_SORTS = ['newest', 'oldest', 'total_desc', 'total_asc'] as const;

export const orderItemSchema = z.object({
  id: z.number().int(),
  productId: z.number().int(),
  productName: z.string(),
  variantId: z.number().int().nullable(),
  variantName: z.string().nullable(),
  sku: z.string(),
  quantity: z.number().int(),
  unitPrice: z.number(),
  lineTotal: z.number(),
  imageUrl: z.string().nullable(),
});

/** An adjustment note number as printed: 'AN-' and digits (the path's `:noteNumber`). */
export const adjustmentNoteNumberSchema = z
  .string()
  .regex(/^AN-\d{6,10}$/, 'noteNumber must be an adjustment note number such as AN-100001');

/** A refund's adjustment note (the ATO's credit note) as the order lists it: the PDF is at `url`. */
export const adjustmentNoteSummarySchema = z
  .object({
    number: z.string(),
    /** When it was issued (the refund's time). */
    date: z.string(),
    /** The total refunded by this note, GST included. */
    amount: z.number(),
    reason: z.string(),
    url: z.string(),
  })
  .meta({ id: 'AdjustmentNoteSummary' });
export type AdjustmentNoteSummary = z.infer<typeof adjustmentNoteSummarySchema>;

export const orderSchema = z
  .object({
    id: z.number().int(),
    orderNumber: z.string(),
    createdAt: z.string(),
    status: z.enum(['Pending', 'Processing', 'Succeeded', 'Cancelled']),
    paymentStatus: z.enum(['Pending', 'Paid', 'Partially refunded', 'Refunded', 'Failed']),
    transactionId: z.string().nullable(),
    email: z.string().nullable(),
    cardBrand: z.string().nullable(),
    cardLast4: z.string().nullable(),
    /** The spec's `totalAmount` is the subtotal ("shown as subtotal"); `total` is what was charged. */
    totalAmount: z.number(),
    subtotal: z.number(),
    taxAmount: z.number(),
    shippingCost: z.number(),
    total: z.number(),
    items: z.array(orderItemSchema),
    shippingAddress: shippingAddressFieldsSchema.nullable(),
    returnStatus: z.enum(['Requested', 'Approved', 'Rejected']).nullable(),
    /** Loyalty points a redemption order was paid with (0 for orders paid by card). */
    pointsSpent: z.number().int(),
    /** The delivery charge's GST share (part of `shippingCost`); 0 on orders issued before it was shown. */
    shippingTaxAmount: z.number(),
    /** "GST included in the total": the goods' GST (`taxAmount`) plus the delivery's. */
    totalTaxAmount: z.number(),
    /** Delivered outside Australia: a GST-free export. */
    gstFreeExport: z.boolean(),
    /** Money refunded so far (cancel, approved returns), and when the last refund was made. */
    refundedAmount: z.number(),
    refundedAt: z.string().nullable(),
    /** One adjustment note per refund of money, oldest first (none for a points order: its points came back). */
    adjustmentNotes: z.array(adjustmentNoteSummarySchema),
    fulfilment: z.enum(['delivery', 'collect']),
    contactPhone: z.string().nullable(),
    /** How the order left or waits (carrier, tracking, ready and collected times); null until the shop fulfils it. */
    fulfilmentRecord: fulfilmentRecordSchema.nullable(),
  })
  .meta({ id: 'Order' });
export type Order = z.infer<typeof orderSchema>;

export const placeOrderResultSchema = z
  .object({ status: z.literal('succeeded'), message: z.string(), order: orderSchema })
  .meta({ id: 'PlaceOrderResult' });

export const returnRequestSchema = z
  .object({
    reason: required('Please tell us why you are returning these items', 1000),
    items: z
      .array(
        z.object({
          orderItemId: numberIdSchema('orderItemId must be an item of this order'),
          quantity: z.number().int().min(1, 'quantity must be at least 1').max(999),
        }),
        { error: 'items must be a list' },
      )
      .min(1, 'Choose at least one item to return')
      .max(100),
  })
  .meta({ id: 'ReturnRequestInput' });
export type ReturnRequestInput = z.output<typeof returnRequestSchema>;

/** A cart line as the browser keeps it, sent for a quote or saved to the account. */
export const cartLineSchema = z.object({
  productId: numberIdSchema('productId must be a product id'),
  variantId: variantIdSchema,
  quantity: z.number().int().min(1).max(999),
  /** The unit price in dollars when the shopper added it, to say 'Price changed from $X to $Y'. */
  addedPrice: z.number().min(0).max(1_000_000).optional(),
});
export const cartLinesSchema = z.object({ items: z.array(cartLineSchema).max(100) }).meta({ id: 'CartLines' });
export type CartLineInput = z.output<typeof cartLineSchema>;

export const cartQuoteLineSchema = z.object({
  productId: z.number().int(),
  variantId: z.number().int().nullable(),
  variantName: z.string().nullable(),
  name: z.string(),
  sku: z.string(),
  imageUrl: z.string().nullable(),
  unitPrice: z.number(),
  originalPrice: z.number(),
  quantity: z.number().int(),
  /** The quantity the shop can sell now (≤ stock). */
  availableQuantity: z.number().int(),
  stockQuantity: z.number().int(),
  lineTotal: z.number(),
  problem: z
    .discriminatedUnion('kind', [
      z.object({ kind: z.literal('price_changed'), message: z.string(), from: z.number(), to: z.number() }),
      z.object({ kind: z.literal('low_stock'), message: z.string(), available: z.number().int() }),
      z.object({ kind: z.literal('unavailable'), message: z.string() }),
    ])
    .nullable(),
});
export const cartQuoteSchema = z
  .object({
    lines: z.array(cartQuoteLineSchema),
    subtotal: z.number(),
    taxAmount: z.number(),
    total: z.number(),
    totalQuantity: z.number().int(),
  })
  .meta({ id: 'CartQuote' });
export type CartQuote = z.infer<typeof cartQuoteSchema>;
