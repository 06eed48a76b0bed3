import { isIPv4, isIPv6 } from 'node:net';

/**
 * What a per-client limit (sign-up, sign-in codes) counts a caller as: an IPv4 address as it is (an
 * IPv4-mapped IPv6 one too), an IPv6 address by its /64. One host is routinely handed a whole /64,
 * so counting single IPv6 addresses would let it step through 2^64 of them past any limit.
 */
export function clientBucket(ip: string | undefined): string {
  if (ip === undefined || ip === '') return 'unknown';
  const bare = ip.replace(/%.*$/, '');
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(bare)?.[1];
  if (mapped !== undefined && isIPv4(mapped)) return mapped;
  if (!isIPv6(bare)) return ip;
  const [head = '', tail] = bare.toLowerCase().split('::');
  // An embedded IPv4 tail (`::1.2.3.4`) fills two groups.
  const groupsIn = (part: string): string[] => (part === '' ? [] : part.split(':').flatMap((g) => (g.includes('.') ? ['0', '0'] : [g])));
  const front = groupsIn(head);
  const back = tail === undefined ? [] : groupsIn(tail);
  const groups = [...front, ...Array<string>(8 - front.length - back.length).fill('0'), ...back];
  return `${groups
    .slice(0, 4)
    .map((g) => parseInt(g, 16).toString(16))
    .join(':')}::/64`;
}
