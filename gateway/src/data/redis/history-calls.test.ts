import { HISTORY_BATCH_TTL_SECONDS, HISTORY_TTL_SECONDS } from '../retention';
import { redisKeys } from './redis-keys';
import { historyCalls } from './history-calls';

const A = 'acc_aaaaaaaaaaaaaaaaaaaaaaaa';
const B = 'acc_bbbbbbbbbbbbbbbbbbbbbbbb';
const KEY_A = `key_${A.slice(4)}00000001`;
const COUNTS = [
  { accountId: A, api: 'token', dayId: '2026-03-30', outcome: '2xx' as const, count: 3 },
  { accountId: B, api: 'logs', dayId: '2026-03-30', outcome: '429' as const, count: 1 },
  { accountId: A, api: 'token', dayId: '2026-03-31', outcome: '2xx' as const, count: 2 },
];
const USED = new Map([[KEY_A, Date.UTC(2026, 2, 31)]]);

// Per account: marker, day hashes, used keys' hashes; args: days, counts, used, then (day index, field, count)…, last uses.
const PART_A = {
  keys: [redisKeys.historyBatch(A, 'b1'), redisKeys.history(A, '2026-03-30'), redisKeys.history(A, '2026-03-31'), redisKeys.key(A, KEY_A)],
  args: [2, 2, 1, 1, 'token:2xx', 3, 2, 'token:2xx', 2, '2026-03-31T00:00:00.000Z'],
};
const PART_B = { keys: [redisKeys.historyBatch(B, 'b1'), redisKeys.history(B, '2026-03-30')], args: [1, 1, 0, 1, 'logs:429', 1] };
const TTLS = [HISTORY_TTL_SECONDS, HISTORY_BATCH_TTL_SECONDS];

describe('historyCalls', () => {
  it.each([
    ['one Redis (50 accounts a call)', 50, [{ keys: [...PART_A.keys, ...PART_B.keys], args: [...TTLS, ...PART_A.args, ...PART_B.args] }]],
    ['a Cluster (one account a call: a slot each)', 1, [{ keys: PART_A.keys, args: [...TTLS, ...PART_A.args] }, { keys: PART_B.keys, args: [...TTLS, ...PART_B.args] }]],
  ])('when a batch goes to %s, then each account brings its marker, days and used keys, in the order the script reads them', (_case, perCall, expected) => {
    expect(historyCalls(COUNTS, USED, 'b1', perCall)).toEqual(expected);
  });

  it('when 120 accounts go 50 a call, then three calls carry them all', () => {
    const counts = Array.from({ length: 120 }, (_, i) => ({ accountId: `acc_${i.toString(16).padStart(24, '0')}`, api: 'token', dayId: '2026-03-30', outcome: '2xx' as const, count: 1 }));
    expect(historyCalls(counts, new Map(), 'b', 50).map((c) => c.keys.length)).toEqual([100, 100, 40]);
  });
});
