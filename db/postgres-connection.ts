import { performance } from 'node:perf_hooks';
import postgres from 'postgres';
import { DatabaseUnavailableError, isDatabaseUnavailable } from './unavailable.ts';

/**
 * The shop's PostgreSQL pool, kept usable when the database goes away and comes back
 * (issue 23), both ways that happens:
 * - **refused** (the server stopped): connections fail at once; the first such failure marks
 *   the database down;
 * - **silent** (packets dropped): statements never answer. When a statement has waited over
 *   0.4 s and nothing else has answered meanwhile, a probe on a connection of its own asks
 *   `select 1`; only when that goes unanswered within a second, and the pool too heard nothing
 *   meanwhile, is the database down, and the pool is replaced: the old one's connections are
 *   destroyed, so what waited on them fails (503) instead of hanging until TCP gives up. A
 *   slow or busy database answers something, so lock waits, long statements and load never
 *   count as an outage.
 * While down, statements fail at once (503 within 2 s, not after a timeout each) and a probe
 * runs every half second; when one answers, the pool serves again and every LISTEN is made
 * again on the live connection, its `onResumed` told that announcements may have been lost.
 */
export interface PostgresConnection {
  /** The client drizzle uses: always the live pool, counting what holds a connection. */
  client: postgres.Sql;
  /** Connections busy and statements waiting for one (postgres.js exposes no counts). */
  pool(): { size: number; inUse: number; waiting: number };
  /** False from a failure to reach the database until a probe answers again. */
  reachable(): boolean;
  /**
   * Whether the database answers, asked on the probe's own connection (readiness): a pool
   * whose connections are all busy says nothing about the database. Rejects when it does not
   * answer within the probe's second, or while it is known to be down.
   */
  ping(): Promise<void>;
  listen(channel: string, onMessage: (payload: string) => void, onResumed?: () => void): Promise<() => Promise<void>>;
  end(): Promise<void>;
}

/** A connection that does not complete in this time is a database out of reach (postgres.js counts seconds). */
const CONNECT_TIMEOUT_SECONDS = 1.5;
/** A statement waiting this long, with nothing else answering, has the database probed. */
const SUSPECT_AFTER_MS = 400;
/** A probe unanswered this long is an outage. */
const PROBE_TIMEOUT_MS = 1_000;
/** While down, how often the database is asked again. */
const RETRY_EVERY_MS = 500;
const WATCH_EVERY_MS = 125;
/** A LISTEN not made again in this time is tried again on the next tick. */
const RESUBSCRIBE_TIMEOUT_MS = 2_000;

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return Promise.race([
    work,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new DatabaseUnavailableError('no answer in time')), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

/** A statement or transaction holding or waiting for a connection of `pool`. */
interface Outstanding {
  startedAt: number;
  pool: postgres.Sql;
}

interface Subscription {
  channel: string;
  onMessage: (payload: string) => void;
  onResumed?: () => void;
  /** Ends the subscription on the pool it was made on; null while it waits to be made again. */
  stop: (() => Promise<void>) | null;
}

export function openPostgresConnection(
  url: string,
  options: { max: number; prepare: (client: postgres.Sql) => void },
): PostgresConnection {
  const makePool = () => {
    const pool = postgres(url, {
      max: options.max,
      onnotice: () => {},
      connect_timeout: CONNECT_TIMEOUT_SECONDS,
      // JIT compiling took ~100 ms on plans that run in 20 ms; the shop's queries are short.
      connection: { application_name: 'harbour-tools', jit: 'off' },
    });
    options.prepare(pool);
    return pool;
  };
  let live = makePool();
  let down = false;
  let closed = false;
  let probing = false;
  let lastProbeAt = 0;
  /** When a statement last settled, answered or refused: the database (or its absence) answering. */
  let lastAnswerAt = performance.now();
  /** Start times of what holds or waits for a connection. */
  const outstanding = new Set<Outstanding>();
  const subscriptions = new Set<Subscription>();

  const unavailable = () => new DatabaseUnavailableError();
  const settled = (entry: Outstanding, error?: unknown) => {
    outstanding.delete(entry);
    if (error !== undefined && isDatabaseUnavailable(error)) markDown(false);
    else lastAnswerAt = performance.now();
  };

  function markDown(replacePool: boolean): void {
    if (closed) return;
    down = true;
    if (replacePool) replacePoolNow();
  }

  /** Gives up the pool's connections: what waits on them is refused now, not when TCP gives up. */
  function replacePoolNow(): void {
    const old = live;
    live = makePool();
    for (const subscription of subscriptions) subscription.stop = null;
    old.end({ timeout: 0 }).catch(() => {});
  }

  async function subscribe(subscription: Subscription): Promise<void> {
    let first = true;
    const { unlisten } = await live.listen(
      subscription.channel,
      (payload) => subscription.onMessage(payload),
      () => {
        // postgres.js listens again by itself after its LISTEN connection closed: what was
        // announced meanwhile is lost.
        if (!first) subscription.onResumed?.();
        first = false;
      },
    );
    subscription.stop = unlisten;
  }

  /**
   * Back: a fresh pool (postgres.js's own LISTEN connection may be stuck re-listening after the
   * outage; nothing runs on the old pool, as statements failed at once while down), then every
   * LISTEN made again in the background, so the watchdog never waits on it.
   */
  function markUp(): void {
    replacePoolNow();
    down = false;
    void resubscribeAll();
  }

  let resubscribing = false;
  async function resubscribeAll(): Promise<void> {
    if (resubscribing) return;
    resubscribing = true;
    try {
      for (const subscription of subscriptions) {
        if (subscription.stop) continue;
        const made = await withTimeout(subscribe(subscription), RESUBSCRIBE_TIMEOUT_MS).then(
          () => true,
          () => false,
        );
        // Announced meanwhile is lost, made again or not: nothing kept can be trusted.
        subscription.onResumed?.();
        if (!made) subscription.stop = null;
      }
    } finally {
      resubscribing = false;
    }
  }

  /** `select 1` on a connection of its own: true when the database answers in time. */
  /**
   * The probe's own connection, kept between probes: a `select 1` on an open connection costs
   * the server next to nothing even when it is busy, where a new connection (a new backend
   * process) could take longer than the probe may wait. Made afresh after a probe that failed.
   */
  let prober: postgres.Sql | null = null;
  async function probe(): Promise<boolean> {
    prober ??= postgres(url, {
      max: 1,
      onnotice: () => {},
      connect_timeout: PROBE_TIMEOUT_MS / 1000,
      idle_timeout: 0,
      max_lifetime: null,
      connection: { application_name: 'harbour-tools probe' },
    });
    const single = prober;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let answered = false;
    try {
      await Promise.race([
        single`select 1`,
        new Promise<never>((_, reject) => {
          // After the timer, one more turn of the loop: an answer that arrived while the loop
          // was busy (timers run before I/O) still counts, so a blocked loop is no outage.
          timer = setTimeout(() => setImmediate(() => reject(unavailable())), PROBE_TIMEOUT_MS);
        }),
      ]);
      answered = true;
    } catch (error) {
      // An error the server sent (too many connections, say) is still an answer.
      answered = !isDatabaseUnavailable(error);
    } finally {
      clearTimeout(timer);
    }
    if (!answered) {
      prober = null;
      single.end({ timeout: 0 }).catch(() => {});
    }
    return answered;
  }

  const watch = setInterval(() => {
    if (closed) return;
    if (!down && !resubscribing && [...subscriptions].some((subscription) => !subscription.stop)) void resubscribeAll();
    if (probing) return;
    const now = performance.now();
    let oldest = now;
    for (const entry of outstanding) if (entry.pool === live) oldest = Math.min(oldest, entry.startedAt);
    if (down) {
      // Down (a connection failed), yet statements still wait on the old connections: the
      // network went silent under them. Nothing will answer them.
      if (now - oldest > SUSPECT_AFTER_MS) replacePoolNow();
      if (now - lastProbeAt < RETRY_EVERY_MS) return;
    } else {
      const suspect = now - oldest > SUSPECT_AFTER_MS && now - lastAnswerAt > SUSPECT_AFTER_MS;
      if (!suspect || now - lastProbeAt < PROBE_TIMEOUT_MS) return;
    }
    probing = true;
    lastProbeAt = now;
    const probeStartedAt = now;
    void probe()
      .then((answered) => {
        if (closed) return;
        if (answered && down) markUp();
        // An outage only when the pool heard nothing either while the probe waited: a busy
        // database still answers something, a silent network nothing.
        else if (!answered && !down && lastAnswerAt < probeStartedAt) markDown(true);
        else if (answered) lastAnswerAt = performance.now();
      })
      .catch(() => {})
      .finally(() => {
        probing = false;
      });
  }, WATCH_EVERY_MS);
  watch.unref();

  const unsafe = ((...args: Parameters<postgres.Sql['unsafe']>) => {
    if (down) throw unavailable();
    const query = live.unsafe(...args);
    const entry: Outstanding = { startedAt: performance.now(), pool: live };
    outstanding.add(entry);
    // postgres.js runs a query on the first await a microtask later, so the `.values()` drizzle
    // chains on at once still applies; this `then` is only an observer.
    query.then(
      () => settled(entry),
      (error: unknown) => settled(entry, error),
    );
    return query;
  }) as postgres.Sql['unsafe'];
  const begin = (async (...args: Parameters<postgres.Sql['begin']>) => {
    if (down) throw unavailable();
    const entry: Outstanding = { startedAt: performance.now(), pool: live };
    outstanding.add(entry);
    try {
      const result = await live.begin(...args);
      settled(entry);
      return result;
    } catch (error) {
      settled(entry, error);
      throw error;
    }
  }) as postgres.Sql['begin'];

  // Statements inside a transaction go through the transaction's own client, uncounted.
  const client = new Proxy(live, {
    // A tagged-template statement (sql`...`) goes to the live pool too.
    apply(_target, _this, args: Parameters<postgres.Sql>) {
      if (down) throw unavailable();
      return live(...args);
    },
    get(_target, property) {
      if (property === 'unsafe') return unsafe;
      if (property === 'begin') return begin;
      return Reflect.get(live, property, live);
    },
  });

  return {
    client,
    pool: () => ({
      size: options.max,
      inUse: Math.min(outstanding.size, options.max),
      waiting: Math.max(0, outstanding.size - options.max),
    }),
    reachable: () => !down,
    ping: async () => {
      if (down) throw unavailable();
      if (!(await probe())) throw unavailable();
    },
    listen: async (channel, onMessage, onResumed) => {
      const subscription: Subscription = { channel, onMessage, onResumed, stop: null };
      await subscribe(subscription);
      subscriptions.add(subscription);
      return async () => {
        subscriptions.delete(subscription);
        await subscription.stop?.();
      };
    },
    end: async () => {
      closed = true;
      clearInterval(watch);
      prober?.end({ timeout: 0 }).catch(() => {});
      await live.end({ timeout: 5 });
    },
  };
}
