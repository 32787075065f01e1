/**
 * What pages may show about the shop (its identity, hours and delivery rules), as the server's
 * `describeShop` gives it. A contract, so pages take the shape from here and never from server code.
 */

/** One line of the store's week (SHOP_HOURS). */
export interface OpeningHours {
  /** Days as schema.org names them, for JSON-LD. */
  days: string[];
  label: string;
  /** "08:00", or null for a closed day. */
  opens: string | null;
  closes: string | null;
}

export interface ShopInfo {
  name: string;
  phone: string;
  email: string;
  /** Australian Business Number, printed on tax invoices. */
  abn: string;
  address: { street: string; suburb: string; state: string; postcode: string; country: string };
  location: { latitude: number; longitude: number };
  openingHours: OpeningHours[];
  /** ISO dates the store is closed (public holidays): "open now" and click & collect skip them. */
  closedDates: string[];
  social: { facebook: string; instagram: string; youtube: string };
  googleMapsApiKey: string | null;
  kitLaunchDate: string | null;
  /** PUBLIC_URL, else http://localhost:PORT: what canonical, og and JSON-LD URLs name (never the request's Host). */
  publicUrl: string;
  /** Whether the Google button shows: only when a Google client is configured. */
  googleSignIn: boolean;
  shipping: { freeThreshold: number; flatRate: number; gstRate: number };
}
