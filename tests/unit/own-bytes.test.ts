import { brotliCompressSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { ownBytes } from '../../server/own-bytes.ts';

describe('ownBytes', () => {
  it('gives a short answer memory of its own, not a slice of a 64 kB slab', () => {
    const json = Buffer.from(JSON.stringify({ id: 12, name: 'Cordless drill' }));
    const compressed = brotliCompressSync(Buffer.from('Cordless drill '.repeat(300)));
    for (const pooled of [json, compressed]) {
      // What Node 24 hands out: a slice of a 64 kB slab (its Buffer pool, or zlib's output chunk).
      expect(pooled.buffer.byteLength).toBeGreaterThan(pooled.length);
      const own = ownBytes(pooled);
      expect(own.equals(pooled)).toBe(true);
      expect(own.buffer.byteLength).toBe(own.length);
      expect(own.byteOffset).toBe(0);
    }
  });

  it('keeps a buffer that already has its memory to itself', () => {
    const own = Buffer.allocUnsafeSlow(10_000).fill(7);
    expect(ownBytes(own)).toBe(own);
  });
});
