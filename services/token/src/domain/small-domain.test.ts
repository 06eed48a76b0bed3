import { chartPointsProblem } from './chart-limits';
import { chunk } from './chunk';
import { decimalsOf, entryFor, toPriceRecord } from './price-record';
import { toSeries } from './series';
import { sortTokens } from './sort-tokens';
import type { TokenId } from './token-id';

const usdc: TokenId = { input: 'ethereum:0xABC', chain: 'ethereum', address: '0xabc', key: 'ethereum:0xabc' };
const eth: TokenId = { input: 'coingecko:ethereum', chain: 'coingecko', address: 'ethereum', key: 'coingecko:ethereum' };

describe('chunk', () => {
  it.each([
    [250, 100, [100, 100, 50]],
    [100, 100, [100]],
    [0, 100, []],
  ])('when %i items are cut by %i, then the pieces hold %p', (n, size, sizes) => {
    expect(chunk(Array.from({ length: n }, (_, i) => i), size).map((p) => p.length)).toEqual(sizes);
  });
});

describe('chartPointsProblem', () => {
  it.each([
    [5, 100, undefined],
    [1, 500, undefined],
    [6, 100, "tokens × span must be at most 500 (the price indexer's cap); 6 tokens × 100 points = 600: ask for fewer tokens or a span of at most 83"],
  ])('when %i tokens ask for %i points, then the answer is %p', (tokens, span, problem) => {
    expect(chartPointsProblem(tokens, span)).toBe(problem);
  });
});

describe('price records', () => {
  it.each([
    [usdc, 6, 6],
    [usdc, undefined, null],
    [eth, undefined, null],
    [eth, 0, null],
    [eth, 18, 18],
  ])('when %o has decimals %p, then the answer says %p', (token, given, answered) => {
    expect(decimalsOf(token, given)).toBe(answered);
  });

  it('when the indexer keys an answer in another case, then it is still found', () => {
    expect(entryFor({ 'ethereum:0xabc': 1 }, usdc)).toBe(1);
    expect(entryFor({ 'Ethereum:0xABC': 2 }, usdc)).toBe(2);
    expect(entryFor({}, usdc)).toBeUndefined();
  });

  it('when a case-kept chain answers in another case, then it is another token', () => {
    const mint: TokenId = { input: 'solana:AbC', chain: 'solana', address: 'AbC', key: 'solana:AbC' };
    expect(entryFor({ 'solana:abc': 1 }, mint)).toBeUndefined();
    expect(entryFor({ 'solana:AbC': 2 }, mint)).toBe(2);
  });

  it('when the confidence exceeds 1, then it is passed as given', () => {
    expect(toPriceRecord(usdc, { price: 0, symbol: 'HUSD', timestamp: 5, confidence: 1.01 })).toEqual({
      token: 'ethereum:0xABC', chain: 'ethereum', address: '0xabc', symbol: 'HUSD', price_usd: 0, decimals: null, confidence: 1.01, timestamp: 5,
    });
  });
});

describe('toSeries', () => {
  it('when points come unsorted and repeated, then they are ascending and unique', () => {
    expect(toSeries([{ timestamp: 3, price: 30 }, { timestamp: 1, price: 10 }, { timestamp: 3, price: 31 }])).toEqual([
      { timestamp: 1, price_usd: 10 },
      { timestamp: 3, price_usd: 30 },
    ]);
  });
});

describe('sortTokens', () => {
  const answers = new Map<string, number | null>([[usdc.key, 0.99], [eth.key, null]]);
  const build = (t: TokenId) => (answers.has(t.key) ? { record: t.input, confidence: answers.get(t.key)! } : undefined);
  const missing: TokenId = { ...usdc, input: 'base:0x1', key: 'base:0x1' };
  it.each([
    [undefined, { found: [usdc.input, eth.input], not_found: ['base:0x1'], below_confidence: [] }],
    [0.5, { found: [usdc.input], not_found: ['base:0x1'], below_confidence: [eth.input] }],
    [0.995, { found: [], not_found: ['base:0x1'], below_confidence: [usdc.input, eth.input] }],
  ])('when min_confidence is %p, then tokens are sorted into %p', (min, expected) => {
    expect(sortTokens([usdc, eth, missing], build, min)).toEqual(expected);
  });
});
