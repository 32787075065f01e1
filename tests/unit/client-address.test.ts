import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { limitKeyOf } from '../../server/domain/client-address.ts';

/*
 * Issue 21 review: per-address limits keyed on a whole IPv6 address are void, since one
 * client holds a /64 (2^64 addresses). Limits key an IPv6 client by its /64, an IPv4 one
 * (also written IPv4-mapped, ::ffff:a.b.c.d) by its address.
 */
describe('limitKeyOf', () => {
  it('keys IPv4 by the address, however it is written', () => {
    expect(limitKeyOf('203.0.113.7')).toBe('203.0.113.7');
    expect(limitKeyOf('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(limitKeyOf('::FFFF:203.0.113.7')).toBe('203.0.113.7');
  });

  it('keys IPv6 by its /64, however it is written', () => {
    expect(limitKeyOf('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64');
    expect(limitKeyOf('2001:0db8:0001:0002:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64');
    expect(limitKeyOf('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(limitKeyOf('::1')).toBe('0:0:0:0::/64');
    expect(limitKeyOf('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
  });

  it('gives every address of one /64 the same key and addresses of two /64s different keys', () => {
    const hextet = fc.integer({ min: 0, max: 0xffff }).map((value) => value.toString(16));
    const half = fc.tuple(hextet, hextet, hextet, hextet);
    fc.assert(
      fc.property(half, half, half, (prefix, left, right) => {
        const a = [...prefix, ...left].join(':');
        const b = [...prefix, ...right].join(':');
        expect(limitKeyOf(a)).toBe(limitKeyOf(b));
        const other = [...prefix.slice(0, 3), ((Number.parseInt(prefix[3], 16) + 1) % 0x10000).toString(16), ...left];
        expect(limitKeyOf(other.join(':'))).not.toBe(limitKeyOf(a));
      }),
    );
  });

  it('passes anything else through (a test address, an empty one)', () => {
    expect(limitKeyOf('')).toBe('');
    expect(limitKeyOf('not-an-address')).toBe('not-an-address');
  });
});
