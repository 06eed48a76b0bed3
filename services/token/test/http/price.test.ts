import { priceRoute } from '../../src/routes/price-route';
import { IDS, NOW_S, manyIds, getChecked, startHarness } from './harness';
import type { Harness } from './harness';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());
beforeEach(() => {
  h.local.calls.length = 0;
});

const price = (query: Record<string, string>, plan?: string) => getChecked(h.app, priceRoute, query, plan);

describe('GET /v1/price', () => {
  it('when known tokens are asked, then each comes back with price, symbol, decimals, confidence and time', async () => {
    const res = await price({ tokens: `${IDS.usdc},${IDS.sol}` });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Prices retrieved successfully');
    const latest = Math.floor(NOW_S / 300) * 300;
    expect(res.body.data.prices).toEqual([
      { token: IDS.usdc, chain: 'ethereum', address: IDS.usdc.split(':')[1], symbol: 'USDC', price_usd: expect.any(Number), decimals: 6, confidence: 0.99, timestamp: latest },
      { token: IDS.sol, chain: 'solana', address: 'So11111111111111111111111111111111111111112', symbol: 'SOL', price_usd: expect.any(Number), decimals: 9, confidence: 0.99, timestamp: latest },
    ]);
    expect(res.body.data.prices[0].price_usd).toBeCloseTo(1, 2);
    expect(res.body.data).toMatchObject({ count: 2, not_found: [], below_confidence: [] });
  });

  it('when an address is checksummed, then it is sent lower-case and answered under the caller spelling', async () => {
    const res = await price({ tokens: `${IDS.usdcChecksummed},${IDS.usdc},${IDS.usdcChecksummed}` });
    expect(res.body.data.prices.map((p: { token: string }) => p.token)).toEqual([IDS.usdcChecksummed, IDS.usdc]);
    expect(h.local.calls.filter((c) => c.path.startsWith('/prices/current')).map((c) => c.coins)).toEqual([[IDS.usdc]]);
  });

  it('when a Solana mint is asked, then its case is kept upstream, so a wrong-case mint is not found', async () => {
    const wrongCase = IDS.sol.toLowerCase();
    const res = await price({ tokens: `${IDS.sol},${wrongCase}` });
    expect(h.local.calls.at(-1)!.coins).toEqual([IDS.sol, wrongCase]);
    expect(res.body.data.prices.map((p: { token: string }) => p.token)).toEqual([IDS.sol]);
    expect(res.body.data.not_found).toEqual([wrongCase]);
  });

  it('when a CoinGecko id is asked, then decimals are null', async () => {
    const res = await price({ tokens: IDS.eth });
    expect(res.body.data.prices[0]).toMatchObject({ token: IDS.eth, chain: 'coingecko', address: 'ethereum', symbol: 'ETH', decimals: null });
  });

  it('when a token is distressed, then its confidence 1.01 and price 0 are passed as given', async () => {
    const res = await price({ tokens: IDS.husd });
    expect(res.body.data.prices[0]).toMatchObject({ symbol: 'HUSD', price_usd: 0, confidence: 1.01 });
  });

  it('when the indexer does not know a token, then it is listed in not_found', async () => {
    const res = await price({ tokens: `${IDS.unknown},${IDS.weth}` });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ count: 1, not_found: [IDS.unknown] });
  });

  it('when min_confidence is given, then tokens below it are listed apart', async () => {
    const res = await price({ tokens: `${IDS.brett},${IDS.arb}`, min_confidence: '0.5' });
    expect(res.body.data.prices.map((p: { token: string }) => p.token)).toEqual([IDS.arb]);
    expect(res.body.data.below_confidence).toEqual([IDS.brett]);
  });

  it.each([
    ['tokens is missing', {}, 'tokens is required and must be a comma-separated list of <chain>:<address> or coingecko:<slug> (GET /v1/meta lists the chains)'],
    ['an unknown parameter is sent', { tokens: IDS.eth, currency: 'eur' }, "unknown parameter 'currency'; allowed parameters: tokens, min_confidence"],
    ['min_confidence is negative', { tokens: IDS.eth, min_confidence: '-1' }, 'min_confidence must be a number of at least 0'],
    ['an address is malformed', { tokens: `${IDS.eth},ethereum:0x12` }, "tokens: 'ethereum:0x12' is malformed: a ethereum id is 0x followed by 40 hex digits"],
    ['an entry has no chain', { tokens: 'bitcoin' }, "tokens: 'bitcoin' is not <chain>:<address> or coingecko:<slug>"],
    ['a chain is unknown', { tokens: 'avalanche:0xb97ef9ef8734c71904d8002f8b6bc66dd9c48a6e' }, "tokens: 'avalanche:0xb97ef9ef8734c71904d8002f8b6bc66dd9c48a6e' names unknown chain 'avalanche' (the indexer calls it avax); GET /v1/meta lists the supported chains in data.chains"],
    ['an entry is empty', { tokens: `${IDS.eth},` }, 'tokens: an entry is empty (two commas in a row, or a comma at an end)'],
  ])('when %s, then 400 says what is wrong and calls nothing upstream', async (_case, query, message) => {
    const res = await price(query as Record<string, string>);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('BAD_REQUEST');
    expect(res.body.message).toBe(message);
    expect(h.local.calls.filter((c) => c.path.startsWith('/prices'))).toEqual([]);
  });

  it.each([
    ['free', 3, 4, 'tokens lists 4 tokens but the free plan allows at most 3 per call; the starter plan allows up to 12'],
    ['starter', 12, 13, 'tokens lists 13 tokens but the starter plan allows at most 12 per call; the pro plan allows up to 60'],
    ['pro', 60, 61, 'tokens lists 61 tokens but the pro plan allows at most 60 per call; the scale plan allows up to 250'],
    ['scale', 250, 251, 'tokens lists 251 tokens but the scale plan allows at most 250 per call; no plan allows more than 250 (scale); split the list'],
  ])('when the %s plan sends its limit of %i, then it is served, and %i is refused naming the plan that allows more', async (plan, limit, over, message) => {
    const ok = await price({ tokens: manyIds(limit).join(',') }, plan);
    expect(ok.status).toBe(200);
    expect(ok.body.data.not_found).toHaveLength(limit);
    const refused = await price({ tokens: manyIds(over).join(',') }, plan);
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe(message);
    expect(refused.body.error.details).toEqual({ parameter: 'tokens', plan, count: over });
  });

  it('when no subscription header is sent, then the top plan limit applies', async () => {
    expect((await price({ tokens: manyIds(250).join(',') })).status).toBe(200);
    expect((await price({ tokens: manyIds(251).join(',') })).status).toBe(400);
  });

  it('when a plan name is unknown, then the free limit applies', async () => {
    const res = await price({ tokens: manyIds(4).join(',') }, 'platinum');
    expect(res.body.message).toContain('the free plan allows at most 3');
  });
});
