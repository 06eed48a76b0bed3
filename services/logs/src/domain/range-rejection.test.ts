import { chainSpanLimit, nextSpan, readRangeRejection, type RangeAdvice } from './range-rejection.js';

describe('readRangeRejection', () => {
  it.each<[string, string, RangeAdvice | undefined]>([
    ['Alchemy', 'Log response size exceeded. You can make eth_getLogs requests with up to a 2K block range and no limit on the response size, or you can request any block range with a cap of 10K logs in the response. Based on your parameters and the response size limit, this block range should work: [0x10, 0x1f]', { kind: 'suggested', from: 16, to: 31 }],
    ['Alchemy free tier', 'Under the Free tier plan, you can make eth_getLogs requests with up to a 10 block range.', { kind: 'limit', blocks: 10 }],
    ['Infura', 'query returned more than 10000 results. Try with this block range [0xBDE5F8, 0x102DBCC].', { kind: 'suggested', from: 0xbde5f8, to: 0x102dbcc }],
    ['reth max results', 'query exceeds max results 20000, retry with the range 100-199', { kind: 'suggested', from: 100, to: 199 }],
    ['reth max range', 'query exceeds max block range 100000', { kind: 'limit', blocks: 100000 }],
    ['QuickNode', 'eth_getLogs is limited to a 10,000 range', { kind: 'limit', blocks: 10000 }],
    ['QuickNode (newFilter)', 'eth_getLogs and eth_newFilter are limited to a 10,000 blocks range', { kind: 'limit', blocks: 10000 }],
    ['publicnode', 'exceed maximum block range: 50000', { kind: 'limit', blocks: 50000 }],
    ['geth 1.17', 'exceed maximum block range 5000', { kind: 'limit', blocks: 5000 }],
    ['thirdweb', 'Maximum allowed number of requested blocks is 1000', { kind: 'limit', blocks: 1000 }],
    ['drpc', 'ranges over 10000 blocks are not supported on freetier', { kind: 'limit', blocks: 10000 }],
    ['merkle', 'eth_getLogs range is too large, max is 1k blocks', { kind: 'limit', blocks: 1000 }],
    ['BlockPI', 'eth_getLogs is limited to 1024 block range', { kind: 'limit', blocks: 1024 }],
    ['avalanche', 'requested too many blocks from 0 to 9999, maximum is set to 2048', { kind: 'limit', blocks: 2048 }],
    ['moonbeam', 'block range is too wide (maximum 1024)', { kind: 'limit', blocks: 1024 }],
    ['Cloudflare', 'Max range: 800', { kind: 'limit', blocks: 800 }],
    ['coinbase', 'please limit the query to at most 1000 blocks', { kind: 'limit', blocks: 1000 }],
    ['ankr TAC', 'maximum [from, to] blocks distance: 3000', { kind: 'limit', blocks: 3000 }],
    ['ankr', 'block range is too wide', { kind: 'halve', cause: 'blocks' }],
    ['arbitrum', 'logs matched by query exceeds limit of 10000', { kind: 'halve', cause: 'results' }],
    ['optimism', 'backend response too large', { kind: 'halve', cause: 'results' }],
    ['base', 'block range too large', { kind: 'halve', cause: 'blocks' }],
    ['1rpc', 'response size should not greater than 10000000 bytes', { kind: 'halve', cause: 'results' }],
    ['chainstack', 'Block range limit exceeded.', { kind: 'halve', cause: 'blocks' }],
    ['zkEVM', 'query returned more than 10000 results', { kind: 'halve', cause: 'results' }],
    [
      'Alchemy free tier (a limit and a suggestion)',
      'Under the Free tier plan, you can make eth_getLogs requests with up to a 5 block range. Based on your parameters, this block range should work: [0x6, 0xa]',
      { kind: 'suggested', from: 6, to: 10, limit: 5 },
    ],
    [
      'Alchemy free tier, 10 blocks',
      'You can make eth_getLogs requests with up to a 10 block range. Based on your parameters, this block range should work: [0x1f, 0x28]',
      { kind: 'suggested', from: 31, to: 40, limit: 10 },
    ],
    ['pruned history (not a range problem)', 'pruned history unavailable', undefined],
    ['bad params (not a range problem)', 'invalid block range params', undefined],
  ])('when %s says so, then the advice is read', (_provider, message, advice) => {
    expect(readRangeRejection(message)).toEqual(advice);
  });
});

describe('nextSpan', () => {
  it.each<[RangeAdvice, number, number]>([
    [{ kind: 'suggested', from: 100, to: 199 }, 1000, 100],
    [{ kind: 'suggested', from: 100, to: 2099 }, 1000, 500],
    [{ kind: 'suggested', from: 6, to: 10, limit: 5 }, 40, 5],
    [{ kind: 'suggested', from: 6, to: 20, limit: 5 }, 40, 5],
    [{ kind: 'limit', blocks: 16 }, 64, 16],
    [{ kind: 'limit', blocks: 64 }, 64, 32],
    [{ kind: 'halve', cause: 'blocks' }, 41, 20],
    [{ kind: 'halve', cause: 'results' }, 1, 1],
  ])('when %j rejects %i blocks, then retry with %i', (advice, span, next) => {
    expect(nextSpan(advice, span)).toBe(next);
  });
});

describe('chainSpanLimit', () => {
  it.each<[RangeAdvice, number, number | undefined]>([
    [{ kind: 'limit', blocks: 1000 }, 1000, 1000],
    [{ kind: 'halve', cause: 'blocks' }, 20, 20],
    [{ kind: 'halve', cause: 'results' }, 20, undefined],
    [{ kind: 'suggested', from: 100, to: 199 }, 100, undefined],
    [{ kind: 'suggested', from: 6, to: 10, limit: 5 }, 5, 5],
    [{ kind: 'suggested', from: 6, to: 7, limit: 5 }, 2, 5],
  ])('when the advice is %j leading to %i, then the chain remembers %s', (advice, next, remembered) => {
    expect(chainSpanLimit(advice, next)).toBe(remembered);
  });
});
