import process from 'node:process';

// React picks its production or development build from NODE_ENV when it is first loaded, and
// `npm start` sets none: without this the shop rendered its pages with development React, with
// all its checks. So NODE_ENV is settled before the app's modules (and React) are imported.
process.env.NODE_ENV ??= process.argv.includes('--dev') ? 'development' : 'production';
// Before anything imports drizzle: its ES-module build costs the process 100+ MB of heap.
const { loadDrizzleAsCommonJs } = await import('./drizzle-as-commonjs.ts');
loadDrizzleAsCommonJs();
const { openConfiguredDatabase } = await import('../db/open-configured.ts');
const { isCatalogueEmpty, seedCatalogue } = await import('../db/seed/seed-catalogue.ts');
const { buildApp } = await import('./app.ts');
const { ConfigError, loadConfig, startupWarnings } = await import('./config.ts');
const { backupDiskWarning } = await import('./domain/backups.ts');
const { isDatabaseUnavailable } = await import('../db/unavailable.ts');

/** Starts the shop: config → database (migrated, seeded when empty) → app → listen; stops cleanly on SIGTERM/SIGINT. */
async function main(): Promise<void> {
  const dev = process.argv.includes('--dev');
  const config = loadConfig(dev ? { NODE_ENV: 'development', ...process.env } : process.env);
  const startedAt = performance.now();
  const database = await openConfiguredDatabase(config);

  const app = await buildApp({
    config,
    database,
    storefront: dev ? { mode: 'development' } : { mode: 'production', buildDir: config.buildDir },
  });

  if (config.autoSeed && (await isCatalogueEmpty(database.db))) {
    app.log.info({ products: config.seedProducts }, 'empty catalogue: seeding the demo catalogue');
    const counts = await seedCatalogue(database.db, {
      products: config.seedProducts,
      mediaDir: config.mediaDir,
      log: (message) => app.log.info(message),
    });
    app.log.info(counts, 'demo catalogue seeded');
  }

  let stopping = false;
  /**
   * SIGTERM (a balancer's or orchestrator's stop): readiness answers 503 at once while requests
   * are still served for SHUTDOWN_GRACE_SECONDS, so the balancer takes the process out before it
   * stops listening; then the server stops taking requests, lets those in flight finish (an order
   * being placed completes), runs its close hooks, and the pool closes. SIGINT (Ctrl-C at a
   * terminal) skips the grace.
   */
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.draining = true;
    const graceMs = signal === 'SIGTERM' ? config.shutdownGraceMs : 0;
    app.log.info({ signal, graceMs }, 'shutting down: readiness answers 503');
    const timer = setTimeout(() => {
      app.log.error('shutdown took over 10 s after the grace; exiting');
      process.exit(1);
    }, graceMs + 10_000);
    timer.unref();
    try {
      if (graceMs > 0) await new Promise((done) => setTimeout(done, graceMs));
      app.log.info('shutting down: no new requests; waiting for those in flight');
      await app.close();
      await database.close();
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  };
  // postgres.js can reject a statement nobody awaits when the outage watchdog destroys a pool
  // (seen: "write CONNECTION_DESTROYED" under overload, which ended the process). A database out
  // of reach must not end the process; any other unhandled rejection still does, as in Node.
  process.on('unhandledRejection', (reason) => {
    if (isDatabaseUnavailable(reason)) {
      app.log.warn({ err: reason }, 'a database statement failed with nobody waiting for it');
      return;
    }
    app.log.fatal({ err: reason }, 'unhandled rejection');
    process.exit(1);
  });
  // `on`, not `once`: a second signal during the grace must not fall back to Node's default (an
  // immediate exit that would cut off the orders in flight); `stop` ignores it.
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));

  await app.listen({ host: config.host, port: config.port });
  for (const warning of startupWarnings(config)) app.log.warn(warning);
  // Backups on the disk they protect die with it (the embedded database, or scheduled ones).
  if (config.database.kind === 'pglite' || config.backup.everyHours > 0) {
    const backupWarning = backupDiskWarning(config.backup.dir, config.dataDir);
    if (backupWarning) app.log.warn(backupWarning);
  }
  app.log.info(
    {
      url: config.origin,
      database: database.kind,
      startupMs: Math.round(performance.now() - startedAt),
    },
    `${config.shop.name} is open`,
  );
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError || (error instanceof Error && error.name === 'DatabaseLockedError')) {
    console.error(error.message);
  } else {
    console.error(error);
  }
  process.exit(1);
});
