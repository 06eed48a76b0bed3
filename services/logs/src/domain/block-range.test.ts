import { resolveRange, type Heads } from './block-range.js';
import type { BlockRef } from './query-input.js';

const heads: Heads = { latest: 1000, safe: 968, finalized: 936 };

describe('resolveRange', () => {
  it.each<[BlockRef, BlockRef, { from: number; to: number }]>([
    [0, 'latest', { from: 0, to: 1000 }],
    ['finalized', 'latest', { from: 936, to: 1000 }],
    ['safe', 'safe', { from: 968, to: 968 }],
    [990, 5000, { from: 990, to: 1000 }],
    [1000, 1000, { from: 1000, to: 1000 }],
  ])('when from=%j and to=%j, then %j', (from, to, expected) => {
    expect(resolveRange(from, to, heads, 2000)).toEqual(expected);
  });

  it.each<[BlockRef, BlockRef, Heads, number, RegExp]>([
    [10, 5, heads, 100, /from_block 10 is after to_block 5; a request spans at most 100 blocks/],
    [0, 'latest', heads, 100, /spans 1001 blocks; the maximum is 100 blocks/],
    [2000, 'latest', heads, 100, /from_block 2000 is beyond the chain head 1000/],
    ['finalized', 'latest', { latest: 5, safe: null, finalized: null }, 100, /from_block=finalized is not supported/],
  ])('when from=%j and to=%j, then 400 says %s', (from, to, h, max, message) => {
    expect(() => resolveRange(from, to, h, max)).toThrow(message);
  });
});
