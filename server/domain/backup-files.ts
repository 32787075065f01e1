import { createCipheriv, createHash, randomBytes, scrypt } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { copyFile, mkdir, readdir, rm, stat } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import * as tar from 'tar';

/*
 * The file side of a backup (server/domain/backups.ts): the encrypted format, the copy of a
 * folder while it changes, and the archive. backup-worker.ts runs the copies and the archive off
 * the main thread; restore reads the format here.
 *
 *   "HRBBAK01" | salt (16) | nonce (12) | key check (32) | AES-256-GCM(tar.gz) | tag (16)
 *
 * The key is scrypt(BACKUP_KEY, salt, N=2^15, r=8, p=1) → 64 bytes: the first 32 encrypt, the
 * SHA-256 of the last 32 is the key check (a wrong key is named at once, before any byte is
 * decrypted); the header is the cipher's additional data, so nothing in it can be changed.
 */

export const MAGIC = Buffer.from('HRBBAK01');
export const SALT_BYTES = 16;
export const NONCE_BYTES = 12;
export const CHECK_BYTES = 32;
export const TAG_BYTES = 16;
export const HEADER_BYTES = MAGIC.length + SALT_BYTES + NONCE_BYTES + CHECK_BYTES;
const SCRYPT = { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };

export async function deriveKey(secret: string, salt: Buffer): Promise<{ key: Buffer; check: Buffer }> {
  const derived = await new Promise<Buffer>((done, fail) =>
    scrypt(secret, salt, 64, SCRYPT, (error, key) => (error ? fail(error) : done(key))),
  );
  return { key: derived.subarray(0, 32), check: createHash('sha256').update(derived.subarray(32)).digest() };
}

async function* encrypted(source: AsyncIterable<Buffer>, secret: string): AsyncGenerator<Buffer> {
  const salt = randomBytes(SALT_BYTES);
  const nonce = randomBytes(NONCE_BYTES);
  const { key, check } = await deriveKey(secret, salt);
  const header = Buffer.concat([MAGIC, salt, nonce, check]);
  const cipher = createCipheriv('aes-256-gcm', key, nonce);
  cipher.setAAD(header);
  yield header;
  for await (const chunk of source) yield cipher.update(chunk);
  yield cipher.final();
  yield cipher.getAuthTag();
}

/** Walks a folder: each file's path relative to it, size and modification time (ns), and every folder. */
async function filesUnder(
  root: string,
): Promise<{ files: Map<string, { size: bigint; mtimeNs: bigint }>; folders: string[] }> {
  const files = new Map<string, { size: bigint; mtimeNs: bigint }>();
  const folders: string[] = [];
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  for (const entry of entries) {
    // PostgreSQL needs its empty folders too (pg_wal/archive_status, pg_tblspc, …).
    if (entry.isDirectory()) folders.push(relative(root, join(entry.parentPath, entry.name)));
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    try {
      const info = await stat(path, { bigint: true });
      files.set(relative(root, path), { size: info.size, mtimeNs: info.mtimeNs });
    } catch (error) {
      // Gone between the listing and the stat (a dropped relation, a recycled WAL segment).
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  return { files, folders };
}

export type Copied = Map<string, { size: bigint; mtimeNs: bigint }>;

/** Copies what differs from `copied` into `target`; returns the bytes copied. */
export async function copyChanged(source: string, target: string, copied: Copied): Promise<number> {
  const { files: now, folders } = await filesUnder(source);
  for (const folder of folders) await mkdir(join(target, folder), { recursive: true });
  let bytes = 0;
  for (const [path, info] of now) {
    const before = copied.get(path);
    if (before && before.size === info.size && before.mtimeNs === info.mtimeNs) continue;
    await mkdir(dirname(join(target, path)), { recursive: true });
    try {
      await copyFile(join(source, path), join(target, path));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw error;
    }
    copied.set(path, info);
    bytes += Number(info.size);
  }
  for (const path of copied.keys()) {
    if (!now.has(path)) {
      await rm(join(target, path), { force: true });
      copied.delete(path);
    }
  }
  return bytes;
}

/**
 * Writes `entries` of `staging` as one tar.gz to `file` (mode 600: it holds personal data),
 * encrypted with `key` when given. Links in `staging` are followed (the media folder is linked,
 * not copied).
 */
export async function writeArchive(options: {
  staging: string;
  entries: string[];
  file: string;
  key: string | undefined;
}): Promise<void> {
  const archive = tar.create(
    { cwd: options.staging, gzip: { level: 6 }, portable: true, follow: true },
    options.entries,
  );
  const stream = Readable.from(archive as AsyncIterable<Buffer>);
  await pipeline(
    options.key === undefined ? stream : Readable.from(encrypted(stream, options.key)),
    createWriteStream(options.file, { mode: 0o600 }),
  );
}
