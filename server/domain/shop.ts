import { FLAT_SHIPPING_CENTS, FREE_SHIPPING_THRESHOLD_CENTS, GST_RATE } from '../../contracts/pricing.ts';
import type { ShopInfo } from '../../contracts/shop-info.ts';
import type { Config } from '../config.ts';

/** What pages may show about the shop: identity and rules, never secrets other than the browser maps key. */
export function describeShop(config: Config): ShopInfo {
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
    closedDates: shop.closedDates,
    googleMapsApiKey: shop.googleMapsApiKey ?? null,
    kitLaunchDate: shop.kitLaunchDate ?? null,
    publicUrl: config.origin,
    googleSignIn: config.google !== undefined,
    shipping: {
      freeThreshold: FREE_SHIPPING_THRESHOLD_CENTS / 100,
      flatRate: FLAT_SHIPPING_CENTS / 100,
      gstRate: GST_RATE,
    },
  };
}
