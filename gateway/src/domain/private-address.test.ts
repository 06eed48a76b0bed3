import fc from 'fast-check';
import { isLoopbackHost, isPrivateAddress, refusedBlock } from './private-address';
import { IPV4_SPECIAL_PURPOSE, IPV6_SPECIAL_PURPOSE, OTHER_NON_PUBLIC } from './special-purpose-addresses';

// One address of every entry of IANA's special-purpose registries (and of the blocks they leave
// out), and whether a webhook may reach it, written by hand: [block, address, refused].
const EVERY_ENTRY: [string, string, boolean][] = [
  ['0.0.0.0/8', '0.1.2.3', true],
  ['0.0.0.0/32', '0.0.0.0', true],
  ['10.0.0.0/8', '10.20.30.40', true],
  ['100.64.0.0/10', '100.127.255.254', true],
  ['127.0.0.0/8', '127.0.0.1', true],
  ['169.254.0.0/16', '169.254.169.254', true],
  ['172.16.0.0/12', '172.31.0.1', true],
  ['192.0.0.0/24', '192.0.0.100', true],
  ['192.0.0.0/29', '192.0.0.1', true],
  ['192.0.0.8/32', '192.0.0.8', true],
  ['192.0.0.9/32', '192.0.0.9', true],
  ['192.0.0.10/32', '192.0.0.10', true],
  ['192.0.0.170/32', '192.0.0.170', true],
  ['192.0.0.171/32', '192.0.0.171', true],
  ['192.0.2.0/24', '192.0.2.1', true],
  ['192.31.196.0/24', '192.31.196.1', false],
  ['192.52.193.0/24', '192.52.193.1', false],
  ['192.88.99.0/24', '192.88.99.1', true],
  ['192.88.99.2/32', '192.88.99.2', true],
  ['192.168.0.0/16', '192.168.1.1', true],
  ['192.175.48.0/24', '192.175.48.1', false],
  ['198.18.0.0/15', '198.19.255.1', true],
  ['198.51.100.0/24', '198.51.100.7', true],
  ['203.0.113.0/24', '203.0.113.9', true],
  ['240.0.0.0/4', '240.0.0.1', true],
  ['255.255.255.255/32', '255.255.255.255', true],
  ['224.0.0.0/4', '239.255.255.250', true],
  ['::1/128', '::1', true],
  ['::/128', '::', true],
  ['::ffff:0:0/96', '0:0:0:0:0:ffff:7f00:1', true],
  ['64:ff9b::/96', '64:ff9b::a9fe:a9fe', true],
  ['64:ff9b:1::/48', '64:ff9b:1::808:808', true],
  ['100::/64', '100::1', true],
  ['100:0:0:1::/64', '100:0:0:1::1', true],
  ['2001::/23', '2001:100::1', true],
  ['2001::/32', '2001:0:4136:e378:8000:63bf:3fff:fdd2', true],
  ['2001:1::1/128', '2001:1::1', true],
  ['2001:1::2/128', '2001:1::2', true],
  ['2001:1::3/128', '2001:1::3', true],
  ['2001:2::/48', '2001:2::1', true],
  ['2001:3::/32', '2001:3::1', false],
  ['2001:4:112::/48', '2001:4:112::1', false],
  ['2001:10::/28', '2001:10::1', true],
  ['2001:20::/28', '2001:20::1', false],
  ['2001:30::/28', '2001:30::1', false],
  ['2001:db8::/32', '2001:db8::1', true],
  ['2002::/16', '2002:a00:1::1', true],
  ['2620:4f:8000::/48', '2620:4f:8000::1', false],
  ['3fff::/20', '3fff:fff::1', true],
  ['5f00::/16', '5f00:1::1', true],
  ['fc00::/7', 'fd00:ec2::254', true],
  ['fe80::/10', 'fe80::1', true],
  ['ff00::/8', 'ff02::1', true],
  ['fec0::/10', 'fec0::1', true],
  ['::/96', '::a00:1', true],
];

describe('isPrivateAddress', () => {
  it.each(EVERY_ENTRY)('when the address is in %s (%s), then refused is %s', (_block, address, refused) => {
    expect(isPrivateAddress(address)).toBe(refused);
  });

  it('when the registries are transcribed, then every entry has an address above', () => {
    const tested = new Set(EVERY_ENTRY.map(([block]) => block));
    expect([...IPV4_SPECIAL_PURPOSE, ...IPV6_SPECIAL_PURPOSE, ...OTHER_NON_PUBLIC].map((e) => e.block).filter((block) => !tested.has(block))).toEqual([]);
  });

  it.each([
    '127.9.9.9', '172.16.0.1', '172.31.255.255', '100.64.0.1', '224.0.0.1', '::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:a9fe:a9fe', '64:ff9b::10.0.0.1', '[::1]', 'fe80::1%eth0',
    '::ffff:0:0', '::8.8.8.8', '2002:808:808::1', '64:ff9b:1::8.8.8.8', '4000::1', 'e000::1', '1::1', 'not-an-ip', '', '1.2.3', '01.2.3.4',
  ])('when the address is %s, then it is not public', (address) => {
    expect(isPrivateAddress(address)).toBe(true);
  });

  it.each(['1.1.1.1', '8.8.8.8', '93.184.216.34', '172.32.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8', '0:0:0:0:0:FFFF:0808:0808', '64:ff9b::8.8.8.8', '2a00:1450:4001::200e', '[2606:4700::1]'])('when the address is %s, then it is public', (address) => {
    expect(isPrivateAddress(address)).toBe(false);
  });

  it('when an address is refused, then the block that refuses it is named', () => {
    expect(refusedBlock('fd00::1')).toMatchObject({ block: 'fc00::/7', name: 'Unique-Local' });
    expect(refusedBlock('::ffff:10.1.1.1')).toMatchObject({ block: '10.0.0.0/8' });
    expect(refusedBlock('4000::1')).toMatchObject({ block: '4000::/3' });
    expect(refusedBlock('8.8.8.8')).toBeUndefined();
  });

  const octet = fc.nat(255);
  const ipv4 = fc.tuple(octet, octet, octet, octet);
  const hex = (n: number): string => n.toString(16);

  it('when any IPv4 address is written plain, IPv4-mapped or NAT64 (dotted, hex, uncompressed, upper case), then every form gets the same answer', () => {
    fc.assert(
      fc.property(ipv4, fc.boolean(), ([a, b, c, d], upper) => {
        const v4 = `${a}.${b}.${c}.${d}`;
        const [high, low] = [hex(a * 256 + b), hex(c * 256 + d)];
        const forms = [`::ffff:${v4}`, `::ffff:${high}:${low}`, `0:0:0:0:0:ffff:${high}:${low}`, `64:ff9b::${v4}`, `64:ff9b:0:0:0:0:${high}:${low}`].map((f) => (upper ? f.toUpperCase() : f));
        const plain = isPrivateAddress(v4);
        return forms.every((form) => isPrivateAddress(form) === plain);
      }),
    );
  });

  it('when any address of a refused block or of one judged by nothing it embeds is tried, then it is refused whatever it embeds', () => {
    const inBlock = (prefix: bigint, bits: number) => fc.bigInt({ min: 0n, max: (1n << BigInt(128 - bits)) - 1n }).map((low) => v6((prefix << BigInt(128 - bits)) | low));
    // 2002::/16, 2001::/32, 64:ff9b:1::/48, ::/96, fec0::/10, ff00::/8, 5f00::/16, fc00::/7, 2001:db8::/32, 3fff::/20.
    const refusedBlocks = fc.oneof(
      ...([[0x2002n, 16], [0x20010000n, 32], [0x64ff9b0001n, 48], [0n, 96], [0x3fbn, 10], [0xffn, 8], [0x5f00n, 16], [0x7en, 7], [0x20010db8n, 32], [0x3fff0n, 20]] as const).map(([prefix, bits]) => inBlock(prefix, bits)),
    );
    fc.assert(fc.property(refusedBlocks, (address) => isPrivateAddress(address)));
  });

  it('when any IPv6 address outside 2000::/3 (the global unicast space) is tried, other than an IPv4-mapped or NAT64 one, then it is refused', () => {
    const outside = fc.bigInt({ min: 0n, max: (1n << 128n) - 1n }).filter((n) => n >> 125n !== 1n && n >> 32n !== 0xffffn && n >> 32n !== 0x64ff9bn << 64n);
    fc.assert(fc.property(outside, (n) => isPrivateAddress(v6(n))));
  });

  it('when any address in 10/8, 127/8, 192.168/16 or 169.254/16 is written plain or IPv4-mapped, then it is refused', () => {
    const privateV4 = fc.oneof(fc.tuple(fc.constantFrom(10, 127), octet, octet, octet), fc.tuple(fc.constant(192), fc.constant(168), octet, octet), fc.tuple(fc.constant(169), fc.constant(254), octet, octet));
    fc.assert(fc.property(privateV4, ([a, b, c, d]) => isPrivateAddress(`${a}.${b}.${c}.${d}`) && isPrivateAddress(`::ffff:${a}.${b}.${c}.${d}`) && isPrivateAddress(`64:ff9b::${a}.${b}.${c}.${d}`)));
  });
});

/** The IPv6 address of a 128-bit number, uncompressed. */
function v6(n: bigint): string {
  return Array.from({ length: 8 }, (_, i) => ((n >> BigInt(112 - 16 * i)) & 0xffffn).toString(16)).join(':');
}

describe('isLoopbackHost', () => {
  it('when the host names this machine, then it is loopback; other names are not', () => {
    for (const host of ['localhost', 'a.localhost', '127.0.0.1', '127.1.2.3', '[::1]', '::1', 'LOCALHOST']) expect(isLoopbackHost(host)).toBe(true);
    for (const host of ['example.com', 'localhost.example.com', '10.0.0.1', '[::2]', '128.0.0.1']) expect(isLoopbackHost(host)).toBe(false);
  });
});
