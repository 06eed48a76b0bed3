import type { Express } from 'express';
import request from 'supertest';
import type { Address, Hex } from 'viem';
import { bulkTransfersErc20, connect, deployErc20, mineBlocks, startAnvil, type Anvil, type Chain } from '../support/anvil.js';
import { startCappedProxy, type CappedProxy } from '../support/capped-rpc-proxy.js';
import { buildLogsApp } from '../support/logs-app.js';

// A real anvil on a 2-core machine shared with other suites: hooks may take a few seconds.
jest.setTimeout(60_000);

const MAX_SPAN = 16;
const hex = (n: number) => `0x${n.toString(16).toUpperCase()}`;

// Real provider messages from the reference, each rendered for the rejected span, and whether the
// message states a block limit the chain keeps (a result cap only shapes the page that hit it).
const PROVIDERS: [string, 'kept' | 'not kept', (from: number, to: number, max: number) => string, number][] = [
  ['publicnode', 'kept', (_f, _t, max) => `exceed maximum block range: ${max}`, -32602],
  ['thirdweb', 'kept', (_f, _t, max) => `Maximum allowed number of requested blocks is ${max}`, -32005],
  ['BlockPI', 'kept', (_f, _t, max) => `eth_getLogs is limited to ${max} block range`, -32602],
  ['avalanche', 'kept', (f, t, max) => `requested too many blocks from ${f} to ${t}, maximum is set to ${max}`, -32000],
  ['Infura', 'not kept', (f, _t, max) => `query returned more than 10000 results. Try with this block range [${hex(f)}, ${hex(f + max - 1)}].`, -32005],
  [
    'Alchemy',
    'not kept',
    (f, _t, max) =>
      `Log response size exceeded. You can make eth_getLogs requests with up to a 2K block range and no limit on the response size, or you can request any block range with a cap of 10K logs in the response. Based on your parameters and the response size limit, this block range should work: [${hex(f).toLowerCase()}, ${hex(f + max - 1).toLowerCase()}]`,
    -32602,
  ],
  ['Arbitrum (no size given: halve)', 'not kept', () => 'logs matched by query exceeds limit of 10000', -32602],
  ['Optimism (no size given: halve)', 'kept', () => 'Block range is too large', -32000],
];

let anvil: Anvil;
let chain: Chain;
let token: Address;
let head: number;

async function direct(): Promise<Hex[]> {
  const logs = (await chain.publicClient.request({ method: 'eth_getLogs', params: [{ address: token, fromBlock: '0x0', toBlock: hex(head) }] } as never)) as {
    transactionHash: Hex;
    logIndex: Hex;
  }[];
  return logs.map((l) => `${l.transactionHash}:${Number(l.logIndex)}` as Hex);
}

async function allPages(app: Express, query: Record<string, string | number>): Promise<string[]> {
  const seen: string[] = [];
  let cursor: string | undefined;
  do {
    const res = await request(app).get('/v1/logs').query({ ...query, ...(cursor ? { cursor } : {}) });
    expect(res.status).toBe(200);
    seen.push(...res.body.data.logs.map((l: { transaction_hash: string; log_index: number }) => `${l.transaction_hash}:${l.log_index}`));
    cursor = res.body.data.cursor ?? undefined;
  } while (cursor);
  return seen;
}

beforeAll(async () => {
  anvil = await startAnvil({ chainId: 1 });
  chain = connect(anvil.url);
  token = await deployErc20(chain);
  for (let i = 0; i < 6; i += 1) {
    await bulkTransfersErc20(chain, token, 12, 4);
    await mineBlocks(anvil.url, 37);
  }
  head = Number(await chain.publicClient.getBlockNumber());
});

afterAll(async () => {
  await anvil?.stop();
});

describe('adaptive range splitting behind a provider cap', () => {
  let proxy: CappedProxy | undefined;
  afterEach(async () => {
    await proxy?.stop();
    proxy = undefined;
  });

  it.each(PROVIDERS)('when %s rejects spans over the cap, then every log comes back once, and the span is %s for the chain', async (_name, kept, message, code) => {
    proxy = await startCappedProxy({ target: anvil.url, maxSpan: MAX_SPAN, message, code });
    const { app, spans } = buildLogsApp({ rpcUrls: { ethereum: proxy.url } });
    const expected = await direct();
    expect(expected.length).toBe(73);

    const seen = await allPages(app, { chain: 'ethereum', address: token, from_block: 0, to_block: head, limit: 1000 });
    expect(seen).toEqual(expected);
    expect(proxy.counts.rejected).toBeGreaterThanOrEqual(1);
    if (kept === 'kept') expect(spans.get('ethereum')).toBeLessThanOrEqual(MAX_SPAN);
    else expect(spans.get('ethereum')).toBeUndefined();
  });

  it('when the cap is stated, then calls are the minimum plus the one rejection that taught it, and the next request is not rejected', async () => {
    proxy = await startCappedProxy({ target: anvil.url, maxSpan: MAX_SPAN });
    const { app, spans } = buildLogsApp({ rpcUrls: { ethereum: proxy.url } });
    const minimum = Math.ceil((head + 1) / MAX_SPAN);

    await allPages(app, { chain: 'ethereum', address: token, from_block: 0, to_block: head, limit: 1000 });
    expect(spans.get('ethereum')).toBe(MAX_SPAN);
    expect(proxy.counts.rejected).toBe(1);
    expect(proxy.counts.getLogs).toBe(minimum + 1);

    proxy.reset();
    const seen = await allPages(app, { chain: 'ethereum', address: token, from_block: 0, to_block: head, limit: 1000 });
    expect(seen).toEqual(await direct());
    expect(proxy.counts.rejected).toBe(0);
    expect(proxy.counts.getLogs).toBe(minimum);
  });

  it("when Alchemy's free tier states its limit and suggests a range, then the limit is kept: the minimum calls plus the one rejection, and none on the next request", async () => {
    const limit = 5;
    // Alchemy's free-tier answer, word for word, for the rejected span.
    const alchemy = (from: number) =>
      `Under the Free tier plan, you can make eth_getLogs requests with up to a ${limit} block range. Based on your parameters, this block range should work: [${hex(from).toLowerCase()}, ${hex(from + limit - 1).toLowerCase()}]`;
    proxy = await startCappedProxy({ target: anvil.url, maxSpan: limit, message: alchemy, code: -32602 });
    const { app, spans } = buildLogsApp({ rpcUrls: { ethereum: proxy.url } });
    const minimum = Math.ceil((head + 1) / limit);

    const seen = await allPages(app, { chain: 'ethereum', address: token, from_block: 0, to_block: head, limit: 1000 });
    expect(seen).toEqual(await direct());
    expect(spans.get('ethereum')).toBe(limit);
    expect(proxy.counts.rejected).toBe(1);
    expect(proxy.counts.getLogs).toBe(minimum + 1);

    proxy.reset();
    await allPages(app, { chain: 'ethereum', address: token, from_block: 0, to_block: head, limit: 1000 });
    expect(proxy.counts.rejected).toBe(0);
    expect(proxy.counts.getLogs).toBe(minimum);
  });

  it('when a page fills up, then paging behind the cap still returns every log once', async () => {
    proxy = await startCappedProxy({ target: anvil.url, maxSpan: 5 });
    const { app } = buildLogsApp({ rpcUrls: { ethereum: proxy.url }, maxRpcCalls: 7 });
    const seen = await allPages(app, { chain: 'ethereum', address: token, from_block: 0, to_block: head, limit: 5 });
    expect(seen).toEqual(await direct());
  });

  it('when even one block is rejected, then 502 carries the provider message', async () => {
    proxy = await startCappedProxy({ target: anvil.url, maxSpan: 0, message: () => 'Block range is too large' });
    const { app } = buildLogsApp({ rpcUrls: { ethereum: proxy.url } });
    const res = await request(app).get('/v1/logs').query({ chain: 'ethereum', address: token, from_block: 0, to_block: 40 });
    expect(res.status).toBe(502);
    expect(res.body.message).toMatch(/rejected eth_getLogs: Block range is too large/);
    expect(proxy.counts.getLogs).toBe(6);
  });

  it('when the RPC rejects for another reason, then 502 at once with its message', async () => {
    proxy = await startCappedProxy({ target: anvil.url, maxSpan: 0, message: () => 'pruned history unavailable', code: 4444 });
    const { app } = buildLogsApp({ rpcUrls: { ethereum: proxy.url } });
    const res = await request(app).get('/v1/logs').query({ chain: 'ethereum', address: token, from_block: 0, to_block: 40 });
    expect(res.status).toBe(502);
    expect(res.body.error.details).toEqual({ rpc_message: 'pruned history unavailable' });
    expect(proxy.counts.getLogs).toBe(1);
  });
});

describe('short cache for finalized ranges', () => {
  it('when an identical finalized query repeats within the TTL, then the RPC is not asked again; after it, it is', async () => {
    const proxy = await startCappedProxy({ target: anvil.url, maxSpan: 1_000_000 });
    try {
      let now = 1_000_000;
      const { app } = buildLogsApp({ rpcUrls: { ethereum: proxy.url }, cacheTtlMs: 30_000, clock: () => now });
      const finalized = await request(app).get('/v1/logs').query({ chain: 'ethereum', address: token, from_block: 0, to_block: 'finalized' });
      expect(finalized.status).toBe(200);
      expect(finalized.body.data.to_block).toBeLessThan(head);
      const query = { chain: 'ethereum', address: token, from_block: 0, to_block: finalized.body.data.to_block };
      const calls = proxy.counts.getLogs;

      const again = await request(app).get('/v1/logs').query(query);
      expect(again.body.data.logs).toEqual(finalized.body.data.logs);
      expect(proxy.counts.getLogs).toBe(calls);

      now += 30_001;
      await request(app).get('/v1/logs').query(query);
      expect(proxy.counts.getLogs).toBeGreaterThan(calls);

      const beforeLatest = proxy.counts.getLogs;
      await request(app).get('/v1/logs').query({ ...query, to_block: 'latest' });
      await request(app).get('/v1/logs').query({ ...query, to_block: 'latest' });
      expect(proxy.counts.getLogs).toBeGreaterThanOrEqual(beforeLatest + 2);
    } finally {
      await proxy.stop();
    }
  });
});
