import fc from 'fast-check';
import { isLoopbackHost, isPrivateAddress } from './private-address';

describe('isPrivateAddress', () => {
  it.each([
    '127.0.0.1', '127.9.9.9', '10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '224.0.0.1', '255.255.255.255',
    '::1', '::', 'fe80::1', 'fd00:ec2::254', 'fc00::1', '::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:a9fe:a9fe', '64:ff9b::10.0.0.1', '[::1]', '2001:db8::1', 'not-an-ip', '',
  ])('when the address is %s, then it is not public', (address) => {
    expect(isPrivateAddress(address)).toBe(true);
  });

  it.each(['1.1.1.1', '8.8.8.8', '93.184.216.34', '172.32.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8', '2a00:1450:4001::200e'])('when the address is %s, then it is public', (address) => {
    expect(isPrivateAddress(address)).toBe(false);
  });

  it('when any IPv4 address in 10/8 or 127/8 is written plain or IPv4-mapped, then it is refused', () => {
    fc.assert(
      fc.property(fc.constantFrom(10, 127), fc.nat(255), fc.nat(255), fc.nat(255), (a, b, c, d) => {
        const v4 = `${a}.${b}.${c}.${d}`;
        return isPrivateAddress(v4) && isPrivateAddress(`::ffff:${v4}`);
      }),
    );
  });
});

describe('isLoopbackHost', () => {
  it('when the host names this machine, then it is loopback; other names are not', () => {
    for (const host of ['localhost', 'a.localhost', '127.0.0.1', '127.1.2.3', '[::1]', '::1', 'LOCALHOST']) expect(isLoopbackHost(host)).toBe(true);
    for (const host of ['example.com', 'localhost.example.com', '10.0.0.1', '[::2]', '128.0.0.1']) expect(isLoopbackHost(host)).toBe(false);
  });
});
