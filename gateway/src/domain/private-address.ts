import { isIP } from 'node:net';
import { EMBEDS_IPV4, IPV4_SPECIAL_PURPOSE, IPV6_GLOBAL_UNICAST, IPV6_SPECIAL_PURPOSE, NEAREST_SERVER_ANYCAST, OTHER_NON_PUBLIC } from './special-purpose-addresses';
import type { SpecialBlock } from './special-purpose-addresses';

interface Range {
  entry: SpecialBlock;
  network: bigint;
  prefix: number;
  refused: boolean;
  embedsIpv4: boolean;
}

/** An IPv4 address (four decimal octets, as `isIP` accepts them) as a 32-bit number. */
const ipv4Value = (address: string): bigint => address.split('.').reduce((n, octet) => (n << 8n) | BigInt(Number(octet)), 0n);

/** An IPv6 address `isIP` accepted, as a 128-bit number: `::` filled in, a dotted IPv4 tail read as two groups. */
function ipv6Value(address: string): bigint {
  let text = address;
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text)?.[1];
  if (dotted !== undefined) {
    const v4 = ipv4Value(dotted);
    text = `${text.slice(0, -dotted.length)}${(v4 >> 16n).toString(16)}:${(v4 & 0xffffn).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const groups = (part: string): string[] => (part === '' ? [] : part.split(':'));
  const all = tail === undefined ? groups(head) : [...groups(head), ...Array<string>(8 - groups(head).length - groups(tail).length).fill('0'), ...groups(tail)];
  return all.reduce((n, group) => (n << 16n) | BigInt(parseInt(group, 16)), 0n);
}

/**
 * Which blocks refuse: every one the registry does not call globally reachable (N/A included:
 * 6to4, Teredo and the deprecated blocks), plus the nearest-server anycast addresses; an
 * IPv4-mapped or NAT64 address is judged by the IPv4 address it carries.
 */
function rangeOf(entry: SpecialBlock): Range {
  const [network = '', prefix = ''] = entry.block.split('/');
  return {
    entry,
    network: isIP(network) === 4 ? ipv4Value(network) : ipv6Value(network),
    prefix: Number(prefix),
    refused: entry.globallyReachable !== true || NEAREST_SERVER_ANYCAST.includes(entry.block),
    embedsIpv4: EMBEDS_IPV4.includes(entry.block),
  };
}

const byFamily = (entries: readonly SpecialBlock[], family: 4 | 6): Range[] => entries.filter((e) => isIP(e.block.split('/')[0] ?? '') === family).map(rangeOf);
const IPV4_RANGES = byFamily([...IPV4_SPECIAL_PURPOSE, ...OTHER_NON_PUBLIC], 4);
const IPV6_RANGES = byFamily([...IPV6_SPECIAL_PURPOSE, ...OTHER_NON_PUBLIC], 6);
const GLOBAL_UNICAST = rangeOf({ block: IPV6_GLOBAL_UNICAST, name: 'Global Unicast', rfc: 'RFC 4291', globallyReachable: true });
/** What an IPv6 address outside 2000::/3 and every block above is refused as (its /3, reserved by the IETF). */
const reservedV6 = (value: bigint): SpecialBlock => {
  const top = (value >> 125n) << 13n;
  return { block: `${top.toString(16)}::/3`, name: 'Reserved by IETF', rfc: 'RFC 4291', globallyReachable: false };
};

const contains = (range: Range, value: bigint, bits: number): boolean => value >> BigInt(bits - range.prefix) === range.network >> BigInt(bits - range.prefix);

/** The most specific block holding `value`, if any. */
function closest(ranges: readonly Range[], value: bigint, bits: number): Range | undefined {
  let found: Range | undefined;
  for (const range of ranges) if (contains(range, value, bits) && (!found || range.prefix > found.prefix)) found = range;
  return found;
}

function refusedIpv4(value: bigint): SpecialBlock | undefined {
  const range = closest(IPV4_RANGES, value, 32);
  return range?.refused ? range.entry : undefined;
}

const NOT_AN_ADDRESS: SpecialBlock = { block: 'none', name: 'not an IP address', rfc: '', globallyReachable: false };

/**
 * The special-purpose block that keeps a webhook from `address` (IANA's registries as data, in
 * `special-purpose-addresses.ts`), or undefined when it is public. An IPv4-mapped or NAT64 address
 * (`::ffff:0:0/96`, `64:ff9b::/96`) gets its embedded IPv4 address's answer; any other IPv6 address
 * outside 2000::/3 is refused as reserved. Brackets and a zone (`%eth0`) are ignored; anything that
 * is not an IP address is refused.
 */
export function refusedBlock(address: string): SpecialBlock | undefined {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const family = isIP(bare);
  if (family === 4) return refusedIpv4(ipv4Value(bare));
  if (family !== 6) return NOT_AN_ADDRESS;
  const value = ipv6Value(bare.toLowerCase());
  const range = closest(IPV6_RANGES, value, 128);
  if (range?.embedsIpv4) return refusedIpv4(value & 0xffffffffn);
  if (range) return range.refused ? range.entry : undefined;
  return contains(GLOBAL_UNICAST, value, 128) ? undefined : reservedV6(value);
}

/**
 * Whether a webhook may not reach `address` by default: loopback, private, link-local (cloud
 * metadata), shared, documentation, reserved, multicast or any other block IANA does not call
 * globally reachable, however the address is written (see {@link refusedBlock}).
 */
export function isPrivateAddress(address: string): boolean {
  return refusedBlock(address) !== undefined;
}

/** Whether a URL's host names this machine: `localhost` (and its subdomains), 127.0.0.0/8 or ::1. */
export function isLoopbackHost(hostname: string): boolean {
  const bare = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (bare === 'localhost' || bare.endsWith('.localhost')) return true;
  if (isIP(bare) === 4) return bare.startsWith('127.');
  return bare === '::1';
}
