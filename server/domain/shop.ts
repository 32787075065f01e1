import type { Config } from '../config.ts';

/** Free shipping applies to orders whose subtotal is over this amount (spec §9, spec-decisions "Money"). */
export const FREE_SHIPPING_THRESHOLD_CENTS = 100_00;
export const FLAT_SHIPPING_CENTS = 10_00;
export const GST_RATE = 0.1;

export interface OpeningHours {
  /** Days as schema.org names them, for JSON-LD. */
  days: string[];
  label: string;
  opens: string | null;
  closes: string | null;
}

export const OPENING_HOURS: OpeningHours[] = [
  {
    days: ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday'],
    label: 'Mon–Fri',
    opens: '08:00',
    closes: '17:00',
  },
  { days: ['Saturday'], label: 'Sat', opens: '09:00', closes: '16:00' },
  { days: ['Sunday'], label: 'Sun', opens: null, closes: null },
];

/** What pages may show about the shop: identity and rules, never secrets other than the browser maps key. */
export function describeShop(config: Config) {
  const { shop } = config;
  return {
    name: shop.name,
    phone: shop.phone,
    email: shop.email,
    address: shop.address,
    location: shop.location,
    social: shop.social,
    openingHours: OPENING_HOURS,
    googleMapsApiKey: shop.googleMapsApiKey ?? null,
    kitLaunchDate: shop.kitLaunchDate ?? null,
    publicUrl: config.publicUrl ?? null,
    shipping: {
      freeThreshold: FREE_SHIPPING_THRESHOLD_CENTS / 100,
      flatRate: FLAT_SHIPPING_CENTS / 100,
      gstRate: GST_RATE,
    },
  };
}

export type ShopInfo = ReturnType<typeof describeShop>;
