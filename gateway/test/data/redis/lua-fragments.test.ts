import fc from 'fast-check';
import Redis from 'ioredis';
import { deadlineCheckLua } from '../../../src/data/redis/scripts/deadline-lua';
import { MONTH_TTL_LUA } from '../../../src/data/redis/scripts/month-ttl-lua';
import { monthWindow, ttlSeconds } from '../../../src/domain/windows';
import { startRedisServer } from '../../support/redis-server';
import type { RedisServer } from '../../support/redis-server';

// Lua written into several scripts, each held to what the rest of the gateway computes in
// JavaScript. The admission script works out a month counter's TTL itself (month-ttl-lua.ts),
// where the rest of the gateway uses ttlSeconds: both must give the same answer at every
// millisecond of any month. The scripts' deadline check (deadline-lua.ts) compares text while the
// deadline is in a later second than Redis's clock, and numbers otherwise: both ways must answer as
// `seconds * 1000 + ⌊µs / 1000⌋ > deadline` does.

let server: RedisServer;
let redis: Redis;
const TTLS = `${MONTH_TTL_LUA}\nlocal out = {}\nfor i = 1, #ARGV do out[i] = monthTtl(ARGV[i] + 0) end\nreturn out`;
// The check as the scripts run it, with Redis's time given: ARGV 1 the deadline, 2 and 3 TIME's reply.
const CHECK = `${deadlineCheckLua({ deadline: 'ARGV[1]', onLate: '1', time: '{ARGV[2], ARGV[3]}' })}\nreturn 0`;

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

const late = async (deadline: string, seconds: string, micros: string): Promise<boolean> => (await redis.eval(CHECK, 0, deadline, seconds, micros)) === 1;
const lateByNumbers = (deadline: string, seconds: string, micros: string): boolean => Number(seconds) * 1000 + Math.floor(Number(micros) / 1000) > Number(deadline);

describe('the scripts’ deadline check (Lua)', () => {
  it.each([
    ['the deadline is seconds later', false, '1764312350000', '1764312345', '678901'],
    ['the deadline is in the next second', false, '1764312346000', '1764312345', '999999'],
    ['the deadline is later in the same second', false, '1764312345679', '1764312345', '678901'],
    ['the deadline is this very millisecond', false, '1764312345678', '1764312345', '678901'],
    ['the deadline was a millisecond ago', true, '1764312345677', '1764312345', '678901'],
    ['the deadline was the second before', true, '1764312344999', '1764312345', '0'],
    ['the deadline was a minute ago', true, '1764312285678', '1764312345', '678901'],
    ['TIME gives microseconds with fewer digits', false, '1764312345000', '1764312345', '999'],
    ['the deadline is short (a clock near 1970)', true, '5000', '1764312345', '0'],
    ['the deadline has more digits (after 2286)', false, '10000000000000', '1764312345', '0'],
    ['Redis’s clock has fewer digits (before 2001)', false, '999999999999', '999999998', '0'],
  ])('when %s, then late is %s', async (_case, expected, deadline, seconds, micros) => {
    expect(lateByNumbers(deadline, seconds, micros)).toBe(expected);
    expect(await late(deadline, seconds, micros)).toBe(expected);
  });

  it('when Redis’s time and the deadline are any, then it answers as the numbers do', async () => {
    const seconds = fc.integer({ min: 1_000_000_000, max: 9_999_999_999 });
    await fc.assert(
      fc.asyncProperty(seconds, fc.integer({ min: 0, max: 999_999 }), fc.integer({ min: -5_000, max: 5_000 }), fc.boolean(), async (s, micros, offset, near) => {
        // Near: within seconds of Redis's time (the deadlines gateways send); else anywhere in the range.
        const deadline = String(near ? s * 1000 + Math.floor(micros / 1000) + offset : (s + offset * 100_000) * 1000 + offset);
        expect(await late(deadline, String(s), String(micros))).toBe(lateByNumbers(deadline, String(s), String(micros)));
      }),
      { numRuns: 300 },
    );
  });
});
