import { FLAT_SHIPPING_CENTS, FREE_SHIPPING_THRESHOLD_CENTS, GST_RATE } from '../../contracts/pricing.ts';
import type { Config } from '../config.ts';

export type { OpeningHours } from '../shop-hours.ts';

/** What pages may show about the shop: identity and rules, never secrets other than the browser maps key. */
export function describeShop(config: Config) {
  const { shop } = config;
  return {
    name: shop.name,
    phone: shop.phone,
    email: shop.email,
    abn: shop.abn,
    address: shop.address,
    location: shop.location,
    social: shop.social,
    openingHours: shop.openingHours,
    /** ISO dates the store is closed (public holidays): "open now" and click & collect skip them. */
    closedDates: shop.closedDates,
    googleMapsApiKey: shop.googleMapsApiKey ?? null,
    kitLaunchDate: shop.kitLaunchDate ?? null,
    /** PUBLIC_URL, else http://localhost:PORT: what canonical, og and JSON-LD URLs name (never the request's Host). */
    publicUrl: config.origin,
    /** Whether the Google button shows: only when a Google client is configured. */
    googleSignIn: config.google !== undefined,
    shipping: {
      freeThreshold: FREE_SHIPPING_THRESHOLD_CENTS / 100,
      flatRate: FLAT_SHIPPING_CENTS / 100,
      gstRate: GST_RATE,
    },
  };
}

export type ShopInfo = ReturnType<typeof describeShop>;
