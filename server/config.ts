import { isIP } from 'node:net';
import { resolve } from 'node:path';
import { z } from 'zod';
import type { OpeningHours } from '../contracts/shop-info.ts';
import { DEFAULT_SHOP_HOURS, parseClosedDates, parseShopHours } from './shop-hours.ts';

const booleanFromEnv = z.enum(['true', 'false', '1', '0']).transform((value) => value === 'true' || value === '1');

/** proxy-addr's names for address ranges, which Fastify's trustProxy also takes. */
const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isProxyAddress(entry: string): boolean {
  if (PROXY_RANGE_NAMES.has(entry)) return true;
  const [address = '', bits, ...rest] = entry.split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return false;
  if (bits === undefined) return true;
  const width = Number(bits);
  return /^\d{1,3}$/.test(bits) && width <= (version === 4 ? 32 : 128);
}

/**
 * How much of X-Forwarded-For to believe, as Fastify's `trustProxy`: `false` (none), a hop
 * count (the address that many proxies back from this server), or the proxies' own
 * addresses/CIDR ranges. `true` is refused: it believes the left-most entry, which any client
 * writes itself, and every per-address limit would be gone.
 */
const trustProxyFromEnv = z.string().transform((value, context): false | number | string[] => {
  const text = value.trim();
  if (text === 'false' || text === '0') return false;
  if (/^\d{1,2}$/.test(text)) return Number(text);
  const entries = text
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  if (entries.length > 0 && entries.every(isProxyAddress)) return entries;
  context.addIssue({
    code: 'custom',
    message:
      text === 'true'
        ? 'true would believe any client’s X-Forwarded-For: give the number of proxies in front (e.g. 1) or their addresses (e.g. 10.0.0.0/8)'
        : 'must be false, a hop count (e.g. 1) or a comma-separated list of proxy addresses or CIDR ranges',
  });
  return z.NEVER;
});

/** A SHOP_HOURS / SHOP_CLOSED_DATES text through its parser: a bad value is a config error naming what is wrong. */
function parsedFromEnv<T>(parse: (text: string) => T) {
  return z.string().transform((value, context): T => {
    try {
      return parse(value);
    } catch (error) {
      context.addIssue({ code: 'custom', message: (error as Error).message });
      return z.NEVER;
    }
  });
}

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
  HOST: z.string().min(1).default('0.0.0.0'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  PUBLIC_URL: z.url({ protocol: /^https?$/ }).optional(),
  DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/, error: 'must be a postgres:// or postgresql:// URL' }).optional(),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(100).default(10),
  DATA_DIR: z.string().min(1).default('./data'),
  BUILD_DIR: z.string().min(1).default('./build'),
  MEDIA_DIR: z.string().min(1).optional(),
  CATALOG_CACHE_SECONDS: z.coerce.number().min(0).max(3600).default(10),
  PAGE_CACHE_MB: z.coerce.number().min(0).max(4096).default(32),
  SEARCH_CACHE_MB: z.coerce.number().min(0).max(4096).default(8),
  KEPT_JSON_MB: z.coerce.number().min(0).max(4096).default(16),
  SESSION_CACHE_SECONDS: z.coerce.number().min(0).max(60).default(5),
  SEED_PRODUCTS: z.coerce.number().int().min(0).max(1_000_000).default(1500),
  AUTO_SEED: booleanFromEnv.default(true),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  TRUST_PROXY: trustProxyFromEnv.default(false),
  SHOP_NAME: z.string().min(1).default('Harbour Tools'),
  SHOP_PHONE: z.string().min(1).default('(02) 9000 0000'),
  SHOP_EMAIL: z.email().default('hello@harbourtools.example'),
  SHOP_STREET: z.string().min(1).default('14 Boundary Lane'),
  SHOP_SUBURB: z.string().min(1).default('Silverwater'),
  SHOP_STATE: z.string().min(1).default('NSW'),
  SHOP_POSTCODE: z.string().min(1).default('2128'),
  SHOP_LATITUDE: z.coerce.number().min(-90).max(90).default(-33.8356),
  SHOP_LONGITUDE: z.coerce.number().min(-180).max(180).default(151.0466),
  SHOP_COUNTRY: z.string().min(2).default('Australia'),
  SHOP_HOURS: parsedFromEnv(parseShopHours).default(parseShopHours(DEFAULT_SHOP_HOURS)),
  SHOP_CLOSED_DATES: parsedFromEnv(parseClosedDates).default([]),
  SOCIAL_FACEBOOK_URL: z.url().default('https://facebook.com/harbourtools'),
  SOCIAL_INSTAGRAM_URL: z.url().default('https://instagram.com/harbourtools'),
  SOCIAL_YOUTUBE_URL: z.url().default('https://youtube.com/@harbourtools'),
  GOOGLE_MAPS_API_KEY: z.string().min(1).optional(),
  KIT_LAUNCH_DATE: z.iso.datetime({ offset: true }).optional(),
  SHOP_ABN: z.string().min(1).default('51 824 753 556'),
  PAYMENT_DECLINE_RATE: z.coerce.number().min(0).max(1).default(0.3),
  PAYMENT_LATENCY_MS: z.coerce.number().int().min(0).max(60_000).default(0),
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').max(256).optional(),
  METRICS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  SHUTDOWN_GRACE_SECONDS: z.coerce.number().min(0).max(300).default(5),
  ADMIN_EMAIL: z.email().optional(),
  ADMIN_PASSWORD: z.string().min(12, 'must be at least 12 characters').max(256).optional(),
  SMTP_URL: z.url({ protocol: /^smtps?$/, error: 'must be an smtp:// or smtps:// URL' }).optional(),
  MAIL_FROM: z.string().min(3).optional(),
  MAIL_OUTBOX_DIR: z.string().min(1).optional(),
  REDIS_URL: z.url({ protocol: /^rediss?$/, error: 'must be a redis:// or rediss:// URL' }).optional(),
  CORS_ORIGINS: z.string().optional(),
  GOOGLE_CLIENT_ID: z.string().min(1).optional(),
  GOOGLE_CLIENT_SECRET: z.string().min(1).optional(),
  GOOGLE_ISSUER_URL: z.url().default('https://accounts.google.com'),
  BACKUP_DIR: z.string().min(1).optional(),
  BACKUP_KEY: z.string().min(16, 'must be at least 16 characters').max(1024).optional(),
  BACKUP_EVERY_HOURS: z.coerce
    .number()
    .min(0)
    .max(24 * 31)
    .optional(),
  BACKUP_KEEP: z.coerce.number().int().min(1).max(10_000).default(7),
});

export type Env = z.infer<typeof envSchema>;

export interface Config {
  env: Env['NODE_ENV'];
  host: string;
  port: number;
  publicUrl: string | undefined;
  /**
   * The origin every page, link and e-mail names: PUBLIC_URL, else http://localhost:PORT.
   * Never the request's Host header, which anyone can write (a kept page would carry it to everyone).
   */
  origin: string;
  database: { kind: 'postgres'; url: string; maxConnections: number } | { kind: 'pglite'; dataDir: string };
  dataDir: string;
  buildDir: string;
  mediaDir: string;
  seedProducts: number;
  /** How long catalogue reads are reused in this process; 0 turns the cache off. */
  catalogCacheSeconds: number;
  /** Memory for anonymous catalogue pages kept rendered; 0 turns the page cache off. */
  pageCacheBytes: number;
  /** Memory for search answers kept against the catalogue version; 0 turns the cache off. */
  searchCacheBytes: number;
  /** Memory for catalogue JSON answers kept compressed (KEPT_JSON_MB); 0: none kept. */
  keptJsonBytes: number;
  /** How long a process reuses a validated session; a revocation reaches other processes within it. */
  sessionCacheSeconds: number;
  autoSeed: boolean;
  logLevel: Env['LOG_LEVEL'];
  /** Fastify's `trustProxy`: false, a hop count, or the proxies' addresses (TRUST_PROXY). */
  trustProxy: false | number | string[];
  shop: ShopIdentity;
  /** An admin account made or updated at start (there is no built-in default admin). */
  admin: { email: string; password: string } | undefined;
  mail: { smtpUrl: string | undefined; from: string; outboxDir: string };
  redisUrl: string | undefined;
  /** The simulated gateway's chance of declining a valid card other than the test cards. */
  paymentDeclineRate: number;
  /** How long the simulated gateway takes to answer a charge (tests slow a charge down with it). */
  paymentLatencyMs: number;
  /** GET /metrics: on the shop's port for a bearer of `token`, and/or on 127.0.0.1:`port`; neither, no metrics. */
  metrics: { token: string | undefined; port: number | undefined };
  /** On SIGTERM, how long readiness answers 503 before the server stops taking requests. */
  shutdownGraceMs: number;
  /** Origins allowed to call the API from a browser; empty: no CORS at all. */
  corsOrigins: string[];
  /** Google sign-in (OpenID Connect); undefined hides the button. */
  google: { clientId: string; clientSecret: string; issuerUrl: string } | undefined;
  /**
   * Backups (BACKUP_*): where they go, the key that encrypts them, how often the server takes one
   * (hours; 0: never; 24 by default on the embedded database, 0 on PostgreSQL) and how many stay.
   */
  backup: { dir: string; key: string | undefined; everyHours: number; keep: number };
}

/** The shop's identity: configuration with demo defaults, never literals in pages. */
export interface ShopIdentity {
  name: string;
  phone: string;
  email: string;
  /** Australian Business Number, printed on tax invoices. */
  abn: string;
  address: { street: string; suburb: string; state: string; postcode: string; country: string };
  location: { latitude: number; longitude: number };
  /** The store's week (SHOP_HOURS), spec §2's hours by default. */
  openingHours: OpeningHours[];
  /** ISO dates the store is closed whatever the weekday (SHOP_CLOSED_DATES: public holidays), sorted. */
  closedDates: string[];
  social: { facebook: string; instagram: string; youtube: string };
  googleMapsApiKey: string | undefined;
  kitLaunchDate: string | undefined;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/**
 * Reads and validates the environment. A bad value throws a ConfigError naming
 * each offending variable, so the server stops before it listens.
 */
export function loadConfig(source: NodeJS.ProcessEnv = process.env): Config {
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== ''));
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const env = parsed.data;
  const dataDir = resolve(env.DATA_DIR);
  if ((env.ADMIN_EMAIL === undefined) !== (env.ADMIN_PASSWORD === undefined)) {
    throw new ConfigError('Invalid configuration:\n  ADMIN_EMAIL and ADMIN_PASSWORD must be set together');
  }
  if ((env.GOOGLE_CLIENT_ID === undefined) !== (env.GOOGLE_CLIENT_SECRET === undefined)) {
    throw new ConfigError('Invalid configuration:\n  GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET must be set together');
  }
  const corsOrigins = (env.CORS_ORIGINS ?? '')
    .split(',')
    .map((origin) => origin.trim())
    .filter(Boolean);
  for (const origin of corsOrigins) {
    if (!URL.canParse(origin) || new URL(origin).origin !== origin) {
      throw new ConfigError(
        `Invalid configuration:\n  CORS_ORIGINS: ${origin} is not an origin such as https://app.example.com`,
      );
    }
  }
  return {
    env: env.NODE_ENV,
    host: env.HOST,
    port: env.PORT,
    publicUrl: env.PUBLIC_URL?.replace(/\/$/, ''),
    origin: env.PUBLIC_URL?.replace(/\/$/, '') ?? `http://localhost:${env.PORT}`,
    database: env.DATABASE_URL
      ? { kind: 'postgres', url: env.DATABASE_URL, maxConnections: env.DATABASE_POOL_SIZE }
      : { kind: 'pglite', dataDir: resolve(dataDir, 'pglite') },
    dataDir,
    buildDir: resolve(env.BUILD_DIR),
    mediaDir: resolve(env.MEDIA_DIR ?? resolve(dataDir, 'media')),
    seedProducts: env.SEED_PRODUCTS,
    catalogCacheSeconds: env.CATALOG_CACHE_SECONDS,
    pageCacheBytes: Math.round(env.PAGE_CACHE_MB * 1024 * 1024),
    searchCacheBytes: Math.round(env.SEARCH_CACHE_MB * 1024 * 1024),
    keptJsonBytes: Math.round(env.KEPT_JSON_MB * 1024 * 1024),
    sessionCacheSeconds: env.SESSION_CACHE_SECONDS,
    autoSeed: env.AUTO_SEED,
    logLevel: env.LOG_LEVEL,
    trustProxy: env.TRUST_PROXY,
    shop: {
      name: env.SHOP_NAME,
      phone: env.SHOP_PHONE,
      email: env.SHOP_EMAIL,
      abn: env.SHOP_ABN,
      address: {
        street: env.SHOP_STREET,
        suburb: env.SHOP_SUBURB,
        state: env.SHOP_STATE,
        postcode: env.SHOP_POSTCODE,
        country: env.SHOP_COUNTRY,
      },
      location: { latitude: env.SHOP_LATITUDE, longitude: env.SHOP_LONGITUDE },
      openingHours: env.SHOP_HOURS,
      closedDates: env.SHOP_CLOSED_DATES,
      social: {
        facebook: env.SOCIAL_FACEBOOK_URL,
        instagram: env.SOCIAL_INSTAGRAM_URL,
        youtube: env.SOCIAL_YOUTUBE_URL,
      },
      googleMapsApiKey: env.GOOGLE_MAPS_API_KEY,
      kitLaunchDate: env.KIT_LAUNCH_DATE,
    },
    admin: env.ADMIN_EMAIL && env.ADMIN_PASSWORD ? { email: env.ADMIN_EMAIL, password: env.ADMIN_PASSWORD } : undefined,
    mail: {
      smtpUrl: env.SMTP_URL,
      from: env.MAIL_FROM ?? `${env.SHOP_NAME} <${env.SHOP_EMAIL}>`,
      outboxDir: resolve(env.MAIL_OUTBOX_DIR ?? resolve(dataDir, 'outbox')),
    },
    redisUrl: env.REDIS_URL,
    paymentDeclineRate: env.PAYMENT_DECLINE_RATE,
    paymentLatencyMs: env.PAYMENT_LATENCY_MS,
    metrics: { token: env.METRICS_TOKEN, port: env.METRICS_PORT },
    shutdownGraceMs: env.SHUTDOWN_GRACE_SECONDS * 1000,
    corsOrigins,
    backup: {
      dir: resolve(env.BACKUP_DIR ?? resolve(dataDir, 'backups')),
      key: env.BACKUP_KEY,
      everyHours: env.BACKUP_EVERY_HOURS ?? (env.DATABASE_URL ? 0 : 24),
      keep: env.BACKUP_KEEP,
    },
    google:
      env.GOOGLE_CLIENT_ID && env.GOOGLE_CLIENT_SECRET
        ? { clientId: env.GOOGLE_CLIENT_ID, clientSecret: env.GOOGLE_CLIENT_SECRET, issuerUrl: env.GOOGLE_ISSUER_URL }
        : undefined,
  };
}

/** What an operator should fix before going live, logged once at start (server/main.ts). */
export function startupWarnings(config: Config): string[] {
  const warnings: string[] = [];
  if (config.env === 'production' && config.publicUrl === undefined) {
    warnings.push(
      `PUBLIC_URL is not set: pages, links and e-mails name ${config.origin}. Set PUBLIC_URL to the shop's public address.`,
    );
  }
  return warnings;
}
