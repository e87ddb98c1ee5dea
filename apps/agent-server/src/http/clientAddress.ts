import { isIPv6 } from 'node:net';

/**
 * The client behind a connection's address, as the per-address rules count it
 * (`maxRunsPerAddress`, memory storage's share of waiting threads): an IPv4
 * address as it is, one reached over a dual-stack socket (`::ffff:a.b.c.d`)
 * as that IPv4 address, and an IPv6 address as its /64 (`2001:db8:1:2::/64`):
 * a host picks any address of its /64, and privacy addresses change by
 * themselves, so one client would otherwise be any number of addresses.
 */
export function clientAddress(address: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  if (mapped?.[1] !== undefined) return mapped[1];
  const bare = address.split('%')[0] ?? '';
  if (!isIPv6(bare)) return address;
  // An IPv4 tail is the last 32 bits: two groups, of no account for the /64.
  const groups = (text: string) => (text === '' ? [] : text.split(':').flatMap((g) => (g.includes('.') ? ['0', '0'] : [g])));
  const [head = '', tail] = bare.split('::');
  const first = groups(head);
  const all = tail === undefined ? first : [...first, ...Array<string>(8 - first.length - groups(tail).length).fill('0'), ...groups(tail)];
  return `${all
    .slice(0, 4)
    .map((g) => Number.parseInt(g, 16).toString(16))
    .join(':')}::/64`;
}
