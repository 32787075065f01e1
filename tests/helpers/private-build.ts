import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../..');
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/**
 * A private copy of the built storefront for a test that starts `server/main.ts` (which always
 * serves the storefront, so needs a build). Others rebuild `build/` while tests run, so the
 * server gets its own copy, under node_modules so the bundle still finds its packages; with no
 * build to copy after a minute, it builds one into the copy. The caller removes it.
 */
export async function privateBuild(label: string): Promise<string> {
  const source = join(ROOT, 'build');
  const copy = join(ROOT, 'node_modules', '.cache', `harbour-${label}-${process.pid}-${Date.now()}`);
  for (let attempt = 1; ; attempt += 1) {
    if (existsSync(join(source, 'server', 'index.js'))) {
      try {
        cpSync(source, copy, { recursive: true });
        if (existsSync(join(copy, 'server', 'index.js'))) return copy;
      } catch {
        // a build replaced the folder while it was being copied
      }
      rmSync(copy, { recursive: true, force: true });
    } else if (attempt > 30) {
      const result = spawnSync('npm', ['run', '--silent', 'build'], {
        cwd: ROOT,
        env: { ...process.env, BUILD_DIR: copy },
        stdio: 'inherit',
      });
      if (result.status !== 0) throw new Error(`npm run build failed (${result.status})`);
      return copy;
    }
    // Someone is building right now: their build will be there shortly.
    await sleep(2000);
  }
}
