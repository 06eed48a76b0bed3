import fc from 'fast-check';
import Redis from 'ioredis';
import { MONTH_TTL_LUA } from '../../../src/data/redis/scripts/month-ttl-lua';
import { monthWindow, ttlSeconds } from '../../../src/domain/windows';
import { startRedisServer } from '../../support/redis-server';
import type { RedisServer } from '../../support/redis-server';

// The admission script works out a month counter's TTL itself (month-ttl-lua.ts); the rest of the
// gateway uses ttlSeconds. Both must give the same answer at every millisecond of any month.

let server: RedisServer;
let redis: Redis;
const TTLS = `${MONTH_TTL_LUA}\nlocal out = {}\nfor i = 1, #ARGV do out[i] = monthTtl(ARGV[i] + 0) end\nreturn out`;

beforeAll(async () => {
  server = await startRedisServer();
  redis = new Redis(server.url);
});
afterAll(async () => {
  await redis.quit();
  await server.stop();
});

const luaTtls = async (times: number[]): Promise<number[]> => (await redis.eval(TTLS, 0, ...times)) as number[];
const jsTtl = (nowMs: number): number => ttlSeconds(monthWindow(nowMs), nowMs);

describe('monthTtl (Lua)', () => {
  it.each([
    ['the first millisecond of a month', '2026-03-01T00:00:00.000Z'],
    ['the last millisecond of a month', '2026-03-31T23:59:59.999Z'],
    ['the last second of a year', '2026-12-31T23:59:59.000Z'],
    ['January, whose month after is in the same year', '2027-01-15T08:00:00.000Z'],
    ['February of a leap year', '2028-02-29T12:00:00.000Z'],
    ['February of a year that is not', '2027-02-28T23:59:59.500Z'],
    ['February of 2100, a century that is not a leap year', '2100-02-28T00:00:00.000Z'],
    ['February of 2000, a century that is', '2000-02-29T00:00:00.000Z'],
    ['the Unix epoch', '1970-01-01T00:00:00.000Z'],
  ])('when the call is at %s, then it equals ttlSeconds of its month', async (_case, at) => {
    const nowMs = Date.parse(at);
    expect(await luaTtls([nowMs])).toEqual([jsTtl(nowMs)]);
  });

  it('when calls are at any time from 1970 to 2200, then it equals ttlSeconds of their month', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 0, max: Date.UTC(2200, 0, 1) }), { minLength: 1, maxLength: 200 }), async (times) => {
        expect(await luaTtls(times)).toEqual(times.map(jsTtl));
      }),
      { numRuns: 50 },
    );
  });
});
