/**
 * `bytes` in memory of its own, for bytes kept for long (kept pages, kept JSON). On Node 24 a
 * short Buffer (Buffer.from of a string, say) is a slice of a 64 kB slab shared with other
 * allocations, and zlib's output is a slice of its 64 kB output chunk: a kept 15 kB page or 2 kB
 * answer held 64 kB each, so the caches held several times what their caps count, and the
 * soak's server grew by ~150 MB a minute until the caps were full.
 */
export function ownBytes(bytes: Buffer): Buffer {
  if (bytes.byteOffset === 0 && bytes.buffer.byteLength === bytes.length) return bytes;
  const own = Buffer.allocUnsafeSlow(bytes.length);
  bytes.copy(own);
  return own;
}
