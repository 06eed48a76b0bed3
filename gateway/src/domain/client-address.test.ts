import fc from 'fast-check';
import { clientBucket } from './client-address';

describe('clientBucket', () => {
  it('when the address is IPv4 (or IPv4-mapped), then it is counted as itself', () => {
    expect(clientBucket('203.0.113.7')).toBe('203.0.113.7');
    expect(clientBucket('::ffff:203.0.113.7')).toBe('203.0.113.7');
  });

  it('when the address is IPv6, then every address of one /64 is counted as that /64, in any spelling', () => {
    const bucket = '2001:db8:1:2::/64';
    for (const ip of ['2001:db8:1:2::1', '2001:0db8:0001:0002:ffff:ffff:ffff:ffff', '2001:DB8:1:2:a::b', '2001:db8:1:2::1.2.3.4', '2001:db8:1:2::1%eth0']) expect(clientBucket(ip)).toBe(bucket);
    expect(clientBucket('2001:db8:1:3::1')).not.toBe(bucket);
    expect(clientBucket('::1')).toBe('0:0:0:0::/64');
    expect(clientBucket('2001:db8::')).toBe('2001:db8:0:0::/64');
  });

  it('when the address is missing or not an address, then it is counted as it came (or "unknown")', () => {
    expect(clientBucket(undefined)).toBe('unknown');
    expect(clientBucket('')).toBe('unknown');
    expect(clientBucket('nonsense')).toBe('nonsense');
  });

  it('when random IPv6 addresses share their first four groups, then they share a bucket (property)', () => {
    const group = fc.integer({ min: 0, max: 0xffff }).map((n) => n.toString(16));
    fc.assert(
      fc.property(fc.array(group, { minLength: 8, maxLength: 8 }), fc.array(group, { minLength: 4, maxLength: 4 }), (a, b) => {
        expect(clientBucket(a.join(':'))).toBe(clientBucket([...a.slice(0, 4), ...b].join(':')));
      }),
    );
  });
});
