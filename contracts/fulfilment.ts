import { z } from 'zod';

/*
 * How an order reaches the shopper (issue 22, spec-decisions "Fulfilment"): delivered by a
 * carrier with a tracking number, or collected at the store. The carriers' list and their
 * tracking pages live here, shared by the back office, the API and the shopper's order page.
 */

export const FULFILMENT_METHODS = ['delivery', 'collect'] as const;
export type FulfilmentMethod = (typeof FULFILMENT_METHODS)[number];

export const CARRIERS = [
  {
    id: 'australia-post',
    name: 'Australia Post',
    trackingUrl: 'https://auspost.com.au/mypost/track/details/{number}',
  },
  { id: 'startrack', name: 'StarTrack', trackingUrl: 'https://startrack.com.au/track/details/{number}' },
  {
    id: 'couriers-please',
    name: 'Couriers Please',
    trackingUrl: 'https://www.couriersplease.com.au/tools-track/no/{number}',
  },
  // Any other carrier: the shopper sees the number alone.
  { id: 'other', name: 'Other carrier', trackingUrl: null },
] as const;
export type CarrierId = (typeof CARRIERS)[number]['id'];
export const CARRIER_IDS = CARRIERS.map((carrier) => carrier.id) as [CarrierId, ...CarrierId[]];

export function carrierName(id: string | null): string | null {
  return CARRIERS.find((carrier) => carrier.id === id)?.name ?? null;
}

/** The carrier's tracking page for this number, or null for "other" (and an unknown carrier). */
export function trackingUrl(carrier: string | null, trackingNumber: string | null): string | null {
  const template = CARRIERS.find((candidate) => candidate.id === carrier)?.trackingUrl;
  if (!template || !trackingNumber) return null;
  return template.replace('{number}', encodeURIComponent(trackingNumber));
}

/** An uncollected click & collect order: reminded after 7 days ready, cancelled and refunded after 14. */
export const COLLECT_RULES = {
  reminderAfterDays: 7,
  expireAfterDays: 14,
} as const;

export const FULFILMENT_MESSAGES = {
  carrier: 'Choose the carrier',
  trackingNumber: 'Enter the tracking number',
  trackingNumberShape: 'A tracking number is 4 to 40 letters, digits, spaces or dashes',
  notDelivery: 'This is a click & collect order: mark it ready to collect instead.',
  notCollect: 'This order is for delivery: mark it shipped instead.',
  notProcessing: 'Only a paid order that is being packed (Processing) can be fulfilled.',
  alreadyReady: 'This order is already marked ready to collect.',
  notReady: 'Mark the order ready to collect before it is collected.',
} as const;

/** `POST /api/admin/orders/:id/ship`: the carrier and its tracking number. */
export const shipOrderSchema = z
  .object({
    carrier: z.enum(CARRIER_IDS, { error: FULFILMENT_MESSAGES.carrier }),
    trackingNumber: z
      .string({ error: FULFILMENT_MESSAGES.trackingNumber })
      .trim()
      .min(1, { error: FULFILMENT_MESSAGES.trackingNumber, abort: true })
      .regex(/^[A-Za-z0-9][A-Za-z0-9 -]{2,38}[A-Za-z0-9]$/, FULFILMENT_MESSAGES.trackingNumberShape)
      .transform((value) => value.replace(/\s+/g, ' ').toUpperCase()),
  })
  .meta({ id: 'ShipOrderInput' });
export type ShipOrderInput = z.output<typeof shipOrderSchema>;

/** What the order page shows of how the order left or waits: the record, with the carrier's name and link. */
export const fulfilmentRecordSchema = z
  .object({
    method: z.enum(FULFILMENT_METHODS),
    carrier: z.string().nullable(),
    carrierName: z.string().nullable(),
    trackingNumber: z.string().nullable(),
    trackingUrl: z.string().nullable(),
    shippedAt: z.string().nullable(),
    readyAt: z.string().nullable(),
    collectedAt: z.string().nullable(),
  })
  .meta({ id: 'FulfilmentRecord' });
export type FulfilmentRecord = z.infer<typeof fulfilmentRecordSchema>;
