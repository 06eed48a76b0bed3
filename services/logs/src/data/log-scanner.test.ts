import type { Hex } from 'viem';
import type { RpcLog } from '../domain/rpc-log.js';
import { RpcRejection, type ChainRpc, type LogFilter } from './chain-rpc.js';
import { scanLogs, type ScanRequest } from './log-scanner.js';
import { createSpanMemory } from './span-memory.js';

const hex = (n: number): Hex => `0x${n.toString(16)}`;

// An in-memory node over a fixed set of logs with an optional span cap: enough to drive the
// splitter's arithmetic; the real node and provider messages are exercised in test/integration.
function memoryRpc(blocks: number[], cap = Number.POSITIVE_INFINITY, rejection = (max: number) => `exceed maximum block range: ${max}`): ChainRpc & { calls: LogFilter[] } {
  const perBlock = new Map<number, number>();
  const logs: RpcLog[] = blocks.map((block) => {
    const index = perBlock.get(block) ?? 0;
    perBlock.set(block, index + 1);
    return {
      address: '0x0000000000000000000000000000000000000001',
      topics: [`0x${'11'.repeat(32)}`],
      data: '0x',
      blockNumber: hex(block),
      blockHash: `0x${'00'.repeat(32)}`,
      transactionHash: `0x${'00'.repeat(32)}`,
      transactionIndex: '0x0',
      logIndex: hex(index),
    };
  });
  const calls: LogFilter[] = [];
  return {
    calls,
    chainId: async () => 1,
    heads: async () => ({ latest: 10_000, safe: null, finalized: null }),
    getLogs: async (filter) => {
      calls.push(filter);
      if (filter.toBlock - filter.fromBlock + 1 > cap) throw new RpcRejection(rejection(cap));
      return logs.filter((l) => Number(l.blockNumber) >= filter.fromBlock && Number(l.blockNumber) <= filter.toBlock);
    },
  };
}

const keyOf = (l: RpcLog) => `${Number(l.blockNumber)}:${Number(l.logIndex)}`;

async function pages(rpc: ChainRpc, request: Omit<ScanRequest, 'rpc' | 'chain' | 'afterLogIndex' | 'topics'>, maxCalls = 50) {
  const spans = createSpanMemory();
  const seen: string[] = [];
  let position = { from: request.from, afterLogIndex: -1, spanHint: undefined as number | undefined };
  for (let page = 0; page < 1000; page += 1) {
    const result = await scanLogs({ ...request, ...position, chain: 'ethereum', rpc, topics: [] }, { spans, maxCalls, probeSpan: 64 });
    seen.push(...result.logs.map(keyOf));
    expect(result.logs.length).toBeLessThanOrEqual(request.limit);
    if (!result.next) return { seen, spans };
    position = result.next;
  }
  throw new Error('paging did not end');
}

describe('scanLogs', () => {
  it.each([
    ['sparse logs, no cap', [5, 900, 4000], Number.POSITIVE_INFINITY, 100],
    ['dense blocks cut mid-block', Array.from({ length: 60 }, (_, i) => 10 + Math.floor(i / 7)), Number.POSITIVE_INFINITY, 4],
    ['a cap of 10 blocks', Array.from({ length: 40 }, (_, i) => i * 13), 10, 7],
    ['a cap of 1 block', [0, 0, 1, 3, 3, 3], 1, 2],
    ['no logs at all', [], 100, 10],
  ])('when %s, then every log comes once, in order', async (_name, blocks, cap, limit) => {
    const rpc = memoryRpc(blocks, cap);
    const { seen, spans } = await pages(rpc, { from: 0, to: 5000, limit });
    const expected = (await memoryRpc(blocks).getLogs({ fromBlock: 0, toBlock: 5000, topics: [] })).map(keyOf);
    expect(seen).toEqual(expected);
    if (Number.isFinite(cap)) expect(spans.get('ethereum')).toBe(cap);
  });

  it('when a range is refused for holding too many logs, then the page still gets every log but the chain keeps no span limit', async () => {
    const rpc = memoryRpc(Array.from({ length: 40 }, (_, i) => i * 13), 10, () => 'query returned more than 10000 results');
    const { seen, spans } = await pages(rpc, { from: 0, to: 5000, limit: 7 });
    expect(seen).toHaveLength(40);
    expect(spans.get('ethereum')).toBeUndefined();
  });

  it.each([
    ['a result cap with no size (halve)', () => 'query returned more than 10000 results'],
    ["Alchemy's free tier (a limit and a suggestion)", () => 'you can make eth_getLogs requests with up to a 100 block range. Based on your parameters, this block range should work: [0x0, 0x63]'],
  ])('when %s refuses a span, then no later call of the scan asks for as many blocks', async (_name, message) => {
    const rpc = memoryRpc([], 100, message);
    await scanLogs({ from: 0, to: 5000, limit: 100, chain: 'ethereum', rpc, topics: [], afterLogIndex: -1 }, { spans: createSpanMemory(), maxCalls: 500, probeSpan: 64 });
    let smallestRefused = Number.POSITIVE_INFINITY;
    for (const call of rpc.calls) {
      const span = call.toBlock - call.fromBlock + 1;
      expect(span).toBeLessThan(smallestRefused);
      if (span > 100) smallestRefused = span;
    }
    expect(Number.isFinite(smallestRefused)).toBe(true);
  });

  it('when logs are evenly spread, then pages end on chunk boundaries and no block is fetched twice', async () => {
    const rpc = memoryRpc(Array.from({ length: 1000 }, (_, i) => i));
    const { seen } = await pages(rpc, { from: 0, to: 999, limit: 100 });
    expect(seen).toHaveLength(1000);
    const fetched = rpc.calls.flatMap((c) => Array.from({ length: c.toBlock - c.fromBlock + 1 }, (_, i) => c.fromBlock + i));
    expect(fetched).toHaveLength(1000);
    expect(new Set(fetched).size).toBe(1000);
  });

  it('when the call budget runs out, then the page ends early with a cursor at the next block', async () => {
    const rpc = memoryRpc([4000], 100);
    const result = await scanLogs(
      { chain: 'ethereum', rpc, topics: [], from: 0, afterLogIndex: -1, to: 5000, limit: 10 },
      { spans: createSpanMemory({ ethereum: 100 }), maxCalls: 3, probeSpan: 64 },
    );
    expect(result).toMatchObject({ logs: [], calls: 3 });
    expect(result.next?.afterLogIndex).toBe(-1);
    expect(result.next?.from).toBe(64 + 100 + 100);
  });

  it('when a page ends exactly on the last log of the range, then there is no cursor', async () => {
    const rpc = memoryRpc([1, 2, 3]);
    const result = await scanLogs({ chain: 'ethereum', rpc, topics: [], from: 0, afterLogIndex: -1, to: 3, limit: 3 }, { spans: createSpanMemory(), maxCalls: 5, probeSpan: 64 });
    expect(result.logs).toHaveLength(3);
    expect(result.next).toBeNull();
  });

  it('when the node fails without a range message, then the error is not retried', async () => {
    const rpc = memoryRpc([1]);
    rpc.getLogs = async () => {
      throw new RpcRejection('header not found');
    };
    await expect(
      scanLogs({ chain: 'ethereum', rpc, topics: [], from: 0, afterLogIndex: -1, to: 100, limit: 3 }, { spans: createSpanMemory(), maxCalls: 5, probeSpan: 64 }),
    ).rejects.toMatchObject({ code: 'UPSTREAM_UNAVAILABLE', message: 'the ethereum RPC rejected eth_getLogs: header not found' });
  });
});
