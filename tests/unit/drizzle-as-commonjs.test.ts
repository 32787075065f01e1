import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);

/**
 * In a Node process of its own, as `npm start` runs (Vitest loads modules its own way): which
 * file `drizzle-orm` resolves to, whether its named exports work, and what importing it costs
 * the heap, with and without `loadDrizzleAsCommonJs()`.
 */
async function importDrizzle(withHook: boolean) {
  const script = `
    ${withHook ? `const { loadDrizzleAsCommonJs } = await import(${JSON.stringify(resolve('server/drizzle-as-commonjs.ts'))}); loadDrizzleAsCommonJs();` : ''}
    const before = process.memoryUsage().heapUsed;
    const { pgTable, integer } = await import('drizzle-orm/pg-core');
    const { eq, sql } = await import('drizzle-orm');
    const heapGrowthMb = (process.memoryUsage().heapUsed - before) / 1048576;
    const table = pgTable('t', { id: integer('id') });
    console.log(JSON.stringify({
      resolved: import.meta.resolve('drizzle-orm/pg-core'),
      heapGrowthMb,
      works: typeof eq(table.id, 1) === 'object' && typeof sql === 'function',
    }));`;
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: resolve('.') });
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as { resolved: string; heapGrowthMb: number; works: boolean };
}

describe('loadDrizzleAsCommonJs', () => {
  it('loads drizzle from its CommonJS build, named exports working, at a fraction of the heap', async () => {
    const [commonJs, esModules] = await Promise.all([importDrizzle(true), importDrizzle(false)]);
    expect(commonJs.resolved).toMatch(/drizzle-orm\/pg-core\/index\.cjs$/);
    expect(esModules.resolved).toMatch(/drizzle-orm\/pg-core\/index\.js$/);
    expect(commonJs.works).toBe(true);
    expect(esModules.works).toBe(true);
    // 5–10 MB against 150+ MB on drizzle-orm 0.45 and Node 24; the bound leaves room for both to drift.
    expect(commonJs.heapGrowthMb).toBeLessThan(40);
    expect(esModules.heapGrowthMb).toBeGreaterThan(commonJs.heapGrowthMb);
  }, 60_000);
});
