import { join } from 'node:path';
import type { User } from '../contracts/account.ts';
import type { AccountSummary } from '../contracts/account-fields.ts';
import type { Database } from '../db/client.ts';
import type { ProcessLiveness } from '../db/process-liveness.ts';
import type { Config } from './config.ts';
import { createAccounts, readAccountSummary } from './domain/accounts.ts';
import { createAddressBook, createPaymentMethods } from './domain/address-book.ts';
import { createBackOffice } from './domain/back-office.ts';
import { createCardVelocity } from './domain/card-velocity.ts';
import { getSavedCart, mergeCart, quoteCart, saveCart } from './domain/cart.ts';
import {
  countProductsByBrand,
  getBrand,
  getCategory,
  getFullProduct,
  getProduct,
  getSubcategory,
  listBrands,
  listCategories,
  listProducts,
  listSubcategories,
  stockOfProducts,
} from './domain/catalog.ts';
import { createCatalogAdmin } from './domain/catalog-admin.ts';
import type { CatalogChange } from './domain/catalog-events.ts';
import { createContactService } from './domain/contact.ts';
import type { CounterStore } from './domain/counters.ts';
import { createCurrentPasswordChecks } from './domain/current-password.ts';
import { createFulfilment } from './domain/fulfilment.ts';
import { createGoogleSignIn } from './domain/google-sign-in.ts';
import { createKitLaunch } from './domain/kit-launch.ts';
import type { Mailer } from './domain/mail.ts';
import { createProductPictures } from './domain/media.ts';
import { createMemberships } from './domain/membership.ts';
import { createMembershipBilling } from './domain/membership-billing.ts';
import { createOrders } from './domain/orders.ts';
import { createSimulatedGateway, type PaymentGateway } from './domain/payments.ts';
import { listLedger, pointsBalance } from './domain/points.ts';
import { getPreferences, savePreferences } from './domain/preferences.ts';
import { createReadCache } from './domain/read-cache.ts';
import { autocomplete, productIdsOfOutcome, restockOutcome, searchCatalogue } from './domain/search.ts';
import { createSearchAnswers, readCatalogVersion } from './domain/search-answers.ts';
import { createSecondFactor } from './domain/second-factor.ts';
import { ignoreSecurityEvents, type SecurityEvents } from './domain/security-events.ts';
import { createSessionStore } from './domain/sessions.ts';
import { describeShop } from './domain/shop.ts';
import { listPageEntries, listProductEntries, listSitemapFiles } from './domain/sitemap.ts';
import { createSuggestionIndex, loadSuggestionSnapshot } from './domain/suggestion-index.ts';
import { addToWishlist, listWishlist, listWishlistIds, removeFromWishlist } from './domain/wishlist.ts';
import { countingRefunds, type ShopTallies } from './metrics.ts';
import { EVENT_DRIVEN_TTL_FACTOR } from './page-cache.ts';
import { releaseHeapIfGrown } from './release-heap.ts';

/**
 * The domain functions bound to one database, handed to route loaders through
 * React Router's context: pages and /api call the same code in-process.
 */
export function createShopServices(
  db: Database,
  config: Config,
  infra: {
    counters: CounterStore;
    mailer: Mailer;
    gateway?: PaymentGateway;
    /** Tells the other app processes that the catalogue changed (PostgreSQL NOTIFY). */
    announceCatalogChange?: (change: CatalogChange) => void;
    /** The catalogue version as committed now (createCatalogVersion); search answers are kept against it. */
    catalogVersion: { current(): Promise<number>; reads(): number };
    /** Where security events go (the app's JSON log); none in tests that do not look. */
    securityEvents?: SecurityEvents;
    /** The counters /metrics reports (server/metrics.ts); none in tests that do not look. */
    tallies?: ShopTallies;
    /** Which app processes are alive (the database's); one process alone when not given. */
    liveness?: ProcessLiveness;
  },
) {
  const securityEvents = infra.securityEvents ?? ignoreSecurityEvents;
  const currentPassword = createCurrentPasswordChecks({ db, counters: infra.counters, securityEvents });
  const cardVelocity = createCardVelocity({ db, counters: infra.counters, securityEvents });
  const anyGateway =
    infra.gateway ??
    createSimulatedGateway({
      declineRate: config.paymentDeclineRate,
      latencyMs: config.paymentLatencyMs,
      // A running shop keeps what it charged on disk, so a restart can settle a crashed order (tests keep it in memory).
      ...(config.env === 'test' ? {} : { ledgerFile: join(config.dataDir, 'payment-simulator.jsonl') }),
    });
  const gateway = infra.tallies ? countingRefunds(anyGateway, infra.tallies) : anyGateway;
  const catalogCache = createReadCache({ ttlMs: config.catalogCacheSeconds * 1000, maxEntries: 5000 });
  // Catalogue reads are pure functions of their arguments, so the arguments are the key.
  const cached = <T>(name: string, args: unknown, load: () => Promise<T>) =>
    catalogCache.read(`${name}:${JSON.stringify(args)}`, load);
  /**
   * A read that shows no stock (categories, subcategories, brands and their product counts):
   * every change to it is announced (this process's writes, other processes' by LISTEN, all
   * dropped when LISTEN comes back), so its TTL is only the safety net for writes made behind
   * the domain's back, as kept product pages' is. At 100,000 products on PostgreSQL a
   * subcategory's count took ~14 ms of the database, and re-reading each every 10 s was a
   * quarter of its time under the soak.
   */
  const cachedStockless = <T>(name: string, args: unknown, load: () => Promise<T>) =>
    catalogCache.read(
      `${name}:${JSON.stringify(args)}`,
      load,
      EVENT_DRIVEN_TTL_FACTOR * config.catalogCacheSeconds * 1000,
    );
  const searchAnswers =
    config.searchCacheBytes > 0
      ? createSearchAnswers({
          readVersion: infra.catalogVersion.current,
          compute: (query) => searchCatalogue(db, query),
          // The objects held weigh about twice their JSON, and the API keeps the answer's JSON
          // body beside it (server/api/search.ts): three times the JSON's length.
          sizeOf: (outcome) => 3 * JSON.stringify(outcome).length,
          maxBytes: config.searchCacheBytes,
          // Stock moves no version (migration 0017): the stock a kept answer shows ages as a listing's,
          // then only the stock is read again.
          maxAgeMs: config.catalogCacheSeconds * 1000,
          restock: async (outcome) => restockOutcome(outcome, await stockOfProducts(db, productIdsOfOutcome(outcome))),
        })
      : null;
  const sessions = createSessionStore(db, { ttlMs: config.sessionCacheSeconds * 1000 });
  const secondFactor = createSecondFactor({
    db,
    shopName: config.shop.name,
    securityEvents,
    counters: infra.counters,
    endOtherSessions: (userId, keep) => sessions.revokeUser(userId, keep),
  });
  const changeListeners = new Set<(change: CatalogChange) => void>();
  // Autocomplete from memory, rebuilt after catalogue changes; the SQL answers until it is built (app.ts starts it).
  const suggestions = createSuggestionIndex({
    load: (stopped) => loadSuggestionSnapshot(db, { stopped }),
    fallback: (term) => autocomplete(db, term),
    version: () => readCatalogVersion(db),
    // The build's garbage (and, at start, the seed's) would otherwise stay committed for good.
    afterBuild: () => releaseHeapIfGrown(),
  });
  changeListeners.add((change) => suggestions.catalogChanged(change));
  /** Drops what the change makes stale in this process's caches and tells every listener (page cache, suggestions). */
  const applyCatalogChange = (change: CatalogChange) => {
    if ('productIds' in change) {
      for (const id of change.productIds) {
        catalogCache.forget(`getProduct:${JSON.stringify(id)}`);
        catalogCache.forget(`getFullProduct:${JSON.stringify(id)}`);
      }
    } else {
      catalogCache.clear();
    }
    for (const listener of changeListeners) listener(change);
  };
  /** A change made by this process: applied here at once, then announced to the others. */
  const catalogChanged = (change: CatalogChange) => {
    applyCatalogChange(change);
    infra.announceCatalogChange?.(change);
  };
  const memberships = createMemberships({
    db,
    gateway,
    mailer: infra.mailer,
    shopName: config.shop.name,
    origin: config.origin,
    currentPassword,
    cardVelocity,
  });
  const storeAddress = config.shop.address;
  /** Who the e-mails are from, where their links point (PUBLIC_URL) and where the owner hears of new orders. */
  const emailShop = {
    name: config.shop.name,
    origin: config.origin,
    email: config.shop.email,
    storeAddress: `${storeAddress.street}, ${storeAddress.suburb} ${storeAddress.state} ${storeAddress.postcode}`,
  };
  const membershipBilling = createMembershipBilling({
    db,
    gateway,
    mailer: infra.mailer,
    shopName: config.shop.name,
    origin: config.origin,
  });
  const orders = createOrders({
    db,
    gateway,
    mailer: infra.mailer,
    shopName: config.shop.name,
    emailShop,
    onStockChange: (ids) => catalogChanged({ productIds: ids }),
    shippingPlanOf: (userId) => memberships.planOf(userId),
    cardVelocity,
    tallies: infra.tallies,
    ...(infra.liveness ? { liveness: infra.liveness } : {}),
  });
  const fulfilment = createFulfilment({
    db,
    orderService: orders,
    mailer: infra.mailer,
    shop: config.shop,
    origin: config.origin,
  });
  /** The kept reads a product's full read takes its brand, category and subcategory from. */
  const lookups = {
    getCategory: (id: number) => cachedStockless('getCategory', id, () => getCategory(db, id)),
    getSubcategory: (id: number) => cachedStockless('getSubcategory', id, () => getSubcategory(db, id)),
    getBrand: (id: number) => cachedStockless('getBrand', id, () => getBrand(db, id)),
  };
  return {
    shop: describeShop(config),
    catalog: {
      listCategories: (options: Parameters<typeof listCategories>[1] = {}) =>
        cachedStockless('listCategories', options, () => listCategories(db, options)),
      getCategory: lookups.getCategory,
      listSubcategories: (options: Parameters<typeof listSubcategories>[1] = {}) =>
        cachedStockless('listSubcategories', options, () => listSubcategories(db, options)),
      getSubcategory: lookups.getSubcategory,
      listBrands: (options: Parameters<typeof listBrands>[1] = {}) =>
        cachedStockless('listBrands', options, () => listBrands(db, options)),
      getBrand: lookups.getBrand,
      listProducts: (query: Parameters<typeof listProducts>[1]) =>
        cached('listProducts', query, () => listProducts(db, query)),
      countProductsByBrand: (query: Parameters<typeof countProductsByBrand>[1]) =>
        (query.inStock === undefined ? cachedStockless : cached)('countProductsByBrand', query, () =>
          countProductsByBrand(db, query),
        ),
      getProduct: (id: number) => cached('getProduct', id, () => getProduct(db, id)),
      getFullProduct: (id: number) => cached('getFullProduct', id, () => getFullProduct(db, id, lookups)),
      /** These products' stock as the database has it now (not a cached read): what a kept listing is checked against. */
      stockOf: (ids: readonly number[]) => stockOfProducts(db, ids),
      /**
       * A change another process announced. A stock change (an order placed or cancelled) makes
       * the product's own reads fresh at once; listings may show the old stock line for up to
       * CATALOG_CACHE_SECONDS. Anything else clears every catalogue read.
       */
      applyRemoteChange: applyCatalogChange,
      /** The catalogue reads' hits and misses since start (/metrics); null when CATALOG_CACHE_SECONDS is 0. */
      cacheStats: () => (config.catalogCacheSeconds > 0 ? catalogCache.stats() : null),
      /** After a write made outside the domain modules (a script's or a test's own SQL): drops every catalogue read here. */
      invalidate: () => applyCatalogChange({ everything: true }),
      /** Calls `listener` after every catalogue change, local or remote; returns the way to stop. */
      onChange(listener: (change: CatalogChange) => void): () => void {
        changeListeners.add(listener);
        return () => changeListeners.delete(listener);
      },
    },
    search: {
      autocomplete: (term: string) => suggestions.suggest(term),
      /** The in-process suggestion index: start it once the database is ready, close it with the app. */
      suggestions,
      /** The results page and GET /api/search: kept answers while the catalogue version stands still. */
      search: (query: Parameters<typeof searchCatalogue>[1]) =>
        searchAnswers ? searchAnswers.answer(query) : searchCatalogue(db, query),
      searchAnswers,
      catalogVersion: infra.catalogVersion,
    },
    contact: createContactService(db, infra.counters),
    accounts: createAccounts({
      db,
      sessions,
      counters: infra.counters,
      mailer: infra.mailer,
      shopName: config.shop.name,
      linkOrigin: config.origin,
      currentPassword,
      securityEvents,
      secondFactor,
    }),
    sessions,
    addresses: createAddressBook(db),
    paymentMethods: createPaymentMethods(db),
    preferences: {
      get: (userId: number) => getPreferences(db, userId),
      save: (userId: number, input: Parameters<typeof savePreferences>[2]) => savePreferences(db, userId, input),
    },
    /**
     * What every page's frame shows of a signed-in shopper: the root loader renders it into
     * personal pages, and GET /api/users/summary hands it to a page served from the shared cache.
     */
    accountSummary: (user: Pick<User, 'id' | 'firstName' | 'name' | 'role'>): Promise<AccountSummary> =>
      readAccountSummary(db, user),
    wishlist: {
      ids: (userId: number) => listWishlistIds(db, userId),
      list: (userId: number) => listWishlist(db, userId),
      add: (userId: number, productIds: readonly number[]) => addToWishlist(db, userId, productIds),
      remove: (userId: number, productId: number) => removeFromWishlist(db, userId, productId),
    },
    mailer: infra.mailer,
    gateway,
    securityEvents,
    /** Confirmations with the current password, 10 per account per 15 minutes. */
    currentPassword,
    /** Caps on declined card attempts per account, address and card (issue 21). */
    cardVelocity,
    /** Staff two-step sign-in: authenticator codes and recovery codes. */
    secondFactor,
    orders,
    memberships,
    /** The renewal job: every process runs it (app.ts starts it); tests call `runOnce(now)`. */
    membershipBilling,
    /** Shipping and click & collect; its uncollected-order job runs in every process (app.ts); tests call `runOnce(now)`. */
    fulfilment,
    points: {
      balance: (userId: number) => pointsBalance(db, userId),
      ledger: (userId: number, options: Parameters<typeof listLedger>[2] = {}) => listLedger(db, userId, options),
    },
    catalogAdmin: createCatalogAdmin({
      db,
      onChange: () => catalogChanged({ everything: true }),
    }),
    /** Product pictures: uploads re-encoded to WebP sizes under MEDIA_DIR, delete, set primary, reorder. */
    productPictures: createProductPictures({
      db,
      mediaDir: config.mediaDir,
      onChange: () => catalogChanged({ everything: true }),
    }),
    backOffice: createBackOffice({
      db,
      orderService: orders,
      gateway,
      mailer: infra.mailer,
      emailShop,
    }),
    cart: {
      quote: (lines: Parameters<typeof quoteCart>[1]) => quoteCart(db, lines),
      get: (userId: number) => getSavedCart(db, userId),
      save: (userId: number, lines: Parameters<typeof saveCart>[2]) => saveCart(db, userId, lines),
      merge: (userId: number, lines: Parameters<typeof mergeCart>[2]) => mergeCart(db, userId, lines),
    },
    /** Null unless GOOGLE_CLIENT_ID / GOOGLE_CLIENT_SECRET are set. */
    googleSignIn: config.google ? createGoogleSignIn(config.google) : null,
    kitLaunch: createKitLaunch(db, config.shop.kitLaunchDate),
    sitemap: {
      listFiles: () => listSitemapFiles(db),
      listPages: () => listPageEntries(db),
      listProducts: (chunk: number) => listProductEntries(db, chunk),
    },
  };
}

export type ShopServices = ReturnType<typeof createShopServices>;
