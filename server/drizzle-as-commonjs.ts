import { registerHooks } from 'node:module';

/**
 * Makes `drizzle-orm` (and its subpaths) load from its CommonJS build. Call it before anything
 * imports drizzle: `server/main.ts` and the bench's server do, first thing.
 *
 * Why: drizzle's ES-module build is about a hundred small modules importing each other in
 * cycles, and Node 24 makes 1–1.5 MB of short-lived garbage per module linking such a graph:
 * importing `drizzle-orm/pg-core` as ES modules grows the heap by 156 MB, as CommonJS by 5.5 MB
 * (measured on drizzle-orm 0.45.4, Node 24.21). That garbage is freed, but the heap V8 grew
 * for it stays with the process: the shop held 305 MB after its imports and 409 MB once ready
 * (1,500 products, PGlite); with this, 182 and 355 MB. Same code, same exports (esbuild's
 * CommonJS build annotates its export names, so named imports keep working). The tests, run
 * by Vitest's own module loader, do not go through this; the browser tests' server does.
 */
export function loadDrizzleAsCommonJs(): void {
  registerHooks({
    resolve(specifier, context, nextResolve) {
      if (specifier !== 'drizzle-orm' && !specifier.startsWith('drizzle-orm/')) return nextResolve(specifier, context);
      return nextResolve(specifier, { ...context, conditions: ['node', 'require', 'default'] });
    },
  });
}
