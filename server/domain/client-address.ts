import { isIPv4, isIPv6 } from 'node:net';

/**
 * The key a per-address limit counts a client under: an IPv4 address as it is (also when
 * written IPv4-mapped, `::ffff:a.b.c.d`), an IPv6 address by its /64 — one client holds a
 * whole /64, so keyed by the full address every per-address limit would be void. Anything
 * else (no address) passes through. Logs and records keep the address as it came.
 */
export function limitKeyOf(address: string): string {
  const bare = address.replace(/%.*$/, '');
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(bare);
  if (mapped?.[1] && isIPv4(mapped[1])) return mapped[1];
  if (!isIPv6(bare)) return address;
  const [head = '', tail = ''] = bare.toLowerCase().split('::');
  const left = head ? head.split(':') : [];
  const right = bare.includes('::') && tail ? tail.split(':') : [];
  // An embedded IPv4 tail takes two hextets; only the first four hextets matter here.
  const rightLength = right.reduce((sum, part) => sum + (part.includes('.') ? 2 : 1), 0);
  const hextets = bare.includes('::') ? [...left, ...Array(8 - left.length - rightLength).fill('0'), ...right] : left;
  const prefix = hextets.slice(0, 4).map((part) => Number.parseInt(part || '0', 16).toString(16));
  return `${prefix.join(':')}::/64`;
}
