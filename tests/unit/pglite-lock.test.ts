import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DatabaseLockedError, lockDataDirectory } from '../../db/pglite-lock.ts';

const dirs: string[] = [];
function freshDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'harbour-lock-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A pid that certainly belongs to no running process: a child that has already exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
  return Number(child.stdout.toString());
}

describe('lockDataDirectory', () => {
  it('takes the lock with this pid and releases it', () => {
    const dir = freshDir();
    const release = lockDataDirectory(dir);
    expect(readFileSync(join(dir, 'pglite.lock'), 'utf8')).toBe(String(process.pid));
    release();
    expect(existsSync(join(dir, 'pglite.lock'))).toBe(false);
  });

  it('refuses a directory held by another live process', () => {
    const dir = freshDir();
    // The parent of this test process is alive for the whole test.
    writeFileSync(join(dir, 'pglite.lock'), String(process.ppid));
    expect(() => lockDataDirectory(dir)).toThrow(DatabaseLockedError);
    expect(() => lockDataDirectory(dir)).toThrow(/in use by process \d+.*DATABASE_URL/);
  });

  it('takes over a lock left by a process that died', () => {
    const dir = freshDir();
    writeFileSync(join(dir, 'pglite.lock'), String(deadPid()));
    const release = lockDataDirectory(dir);
    expect(readFileSync(join(dir, 'pglite.lock'), 'utf8')).toBe(String(process.pid));
    release();
  });
});
