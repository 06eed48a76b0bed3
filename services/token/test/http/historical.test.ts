import { historicalRoute } from '../../src/routes/historical-route';
import { LOCAL_COINS, priceAt } from '../support/local-indexer';
import { IDS, NOW_S, getChecked, startHarness } from './harness';
import type { Harness } from './harness';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const historical = (query: Record<string, string>) => getChecked(h.app, historicalRoute, query);

const coin = (id: string) => LOCAL_COINS.find((c) => c.id === id)!;

describe('GET /v1/historical', () => {
  it('when a past time is asked, then each record carries its own time beside the requested one', async () => {
    const asked = Math.floor(NOW_S / 3600) * 3600 - 3 * 86_400 + 600;
    const recorded = asked - 600;
    const res = await historical({ tokens: `${IDS.btc},${IDS.usdcChecksummed}`, timestamp: String(asked) });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      requested_timestamp: asked,
      count: 2,
      prices: [
        { token: IDS.btc, chain: 'coingecko', address: 'bitcoin', symbol: 'BTC', price_usd: priceAt(coin(IDS.btc), recorded), decimals: null, confidence: 0.99, timestamp: recorded, requested_timestamp: asked },
        { token: IDS.usdcChecksummed, chain: 'ethereum', address: IDS.usdc.split(':')[1], symbol: 'USDC', price_usd: priceAt(coin(IDS.usdc), recorded), decimals: 6, confidence: 0.99, timestamp: recorded, requested_timestamp: asked },
      ],
      not_found: [],
      below_confidence: [],
    });
    expect(h.local.calls.at(-1)!.path).toBe(`/prices/historical/${asked}/${IDS.btc},${IDS.usdc}`);
  });

  it('when the time is before the indexer has records, then the tokens are not found', async () => {
    const res = await historical({ tokens: IDS.btc, timestamp: '1000000000' });
    expect(res.body.data).toMatchObject({ count: 0, not_found: [IDS.btc] });
  });

  it('when min_confidence is given, then low-confidence records are set apart', async () => {
    const res = await historical({ tokens: `${IDS.brett},${IDS.eth}`, timestamp: String(NOW_S - 86_400), min_confidence: '0.9' });
    expect(res.body.data).toMatchObject({ count: 1, below_confidence: [IDS.brett] });
  });

  it.each([
    ['the timestamp is missing', { tokens: IDS.btc }, 'timestamp is required and must be an integer from 0 to 9999999999'],
    ['the timestamp is in milliseconds', { tokens: IDS.btc, timestamp: String(NOW_S * 1000) }, 'timestamp must be an integer from 0 to 9999999999'],
    ['the timestamp is not a number', { tokens: IDS.btc, timestamp: 'yesterday' }, 'timestamp must be an integer from 0 to 9999999999'],
    ['the timestamp is in the future', { tokens: IDS.btc, timestamp: String(NOW_S + 60) }, `timestamp must be Unix seconds no later than now (${NOW_S})`],
    ['the timestamp is given twice', { tokens: IDS.btc, timestamp: ['1', '2'] }, 'timestamp must be given only once'],
  ])('when %s, then 400 says so', async (_case, query, message) => {
    const res = await historical(query as Record<string, string>);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(message);
  });
});
