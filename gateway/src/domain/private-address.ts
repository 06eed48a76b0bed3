import { BlockList, isIP } from 'node:net';

// Where a webhook must never be sent unless the operator allows it: this host, private networks,
// link-local (cloud metadata at 169.254.169.254 and fd00:ec2::254 included), shared, reserved,
// documentation and multicast ranges. RFC 6890 and its IPv6 counterparts.
const BLOCKED = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 3],
] as const) BLOCKED.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 127],
  ['100::', 64],
  ['2001::', 23],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) BLOCKED.addSubnet(network, prefix, 'ipv6');

/** The IPv4 address an IPv6 one carries (mapped `::ffff:a.b.c.d`, NAT64 `64:ff9b::/96`), if any. */
function embeddedIpv4(address: string): string | undefined {
  const lower = address.toLowerCase();
  const dotted = /^(?:::ffff:|64:ff9b::)(\d{1,3}(?:\.\d{1,3}){3})$/.exec(lower)?.[1];
  if (dotted) return dotted;
  const hex = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (!hex) return undefined;
  const [high, low] = [parseInt(hex[1]!, 16), parseInt(hex[2]!, 16)];
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

/**
 * Whether an IP address is one a webhook may not reach by default: loopback, private, link-local
 * (cloud metadata), shared, reserved or multicast, also when written as an IPv4-mapped or NAT64
 * IPv6 address. Anything that is not an IP address counts as not public.
 */
export function isPrivateAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const family = isIP(bare);
  if (family === 4) return BLOCKED.check(bare, 'ipv4');
  if (family !== 6) return true;
  const inner = embeddedIpv4(bare);
  if (inner !== undefined) return BLOCKED.check(inner, 'ipv4');
  return BLOCKED.check(bare, 'ipv6');
}

/** Whether a URL's host names this machine: `localhost` (and its subdomains), 127.0.0.0/8 or ::1. */
export function isLoopbackHost(hostname: string): boolean {
  const bare = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (bare === 'localhost' || bare.endsWith('.localhost')) return true;
  if (isIP(bare) === 4) return bare.startsWith('127.');
  return bare === '::1';
}
