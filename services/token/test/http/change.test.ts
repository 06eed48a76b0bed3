import { changeRoute } from '../../src/routes/change-route';
import { LOCAL_COINS, priceAt } from '../support/local-indexer';
import { IDS, NOW_S, getChecked, startHarness } from './harness';
import type { Harness } from './harness';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const change = (query: Record<string, string>) => getChecked(h.app, changeRoute, query);

const coin = (id: string) => LOCAL_COINS.find((c) => c.id === id)!;
const lastHour = Math.floor(NOW_S / 3600) * 3600;

describe('GET /v1/change', () => {
  it('when a period ending at a time is asked, then the change is computed from the two records', async () => {
    const end = lastHour - 86_400;
    const start = end - 7 * 86_400;
    const res = await change({ tokens: `${IDS.weth},${IDS.sol}`, period: '1w', timestamp: String(end) });
    expect(res.status).toBe(200);
    const weth = coin(IDS.weth);
    const from = priceAt(weth, start);
    const to = priceAt(weth, end);
    expect(res.body.data).toMatchObject({ period: '1w', period_seconds: 604_800, start_timestamp: start, end_timestamp: end, window_seconds: 21_600, count: 2 });
    expect(res.body.data.changes[0]).toEqual({
      token: IDS.weth, chain: 'ethereum', address: IDS.weth.split(':')[1], symbol: 'WETH', confidence: 0.99,
      start: { timestamp: start, price_usd: from }, end: { timestamp: end, price_usd: to },
      change_percent: expect.any(Number),
    });
    expect(res.body.data.changes[0].change_percent).toBeCloseTo(((to - from) / from) * 100, 9);
    const call = h.local.calls.at(-1)!;
    expect(call.path).toBe('/batchHistorical');
    expect(JSON.parse(call.query.coins!)).toEqual({ [IDS.weth]: [start, end], [IDS.sol]: [start, end] });
    expect(call.query.searchWidth).toBe('6h');
  });

  it('when no timestamp is given, then the period ends now with the nearest records', async () => {
    const res = await change({ tokens: IDS.btc, period: '4h' });
    expect(res.body.data).toMatchObject({ end_timestamp: NOW_S, start_timestamp: NOW_S - 14_400, window_seconds: 3600 });
    expect(res.body.data.changes[0].end.timestamp).toBe(lastHour);
    expect(res.body.data.changes[0].start.timestamp).toBe(lastHour - 14_400);
  });

  it('when the start price is 0, then change_percent is null', async () => {
    const res = await change({ tokens: IDS.husd, period: '1d', timestamp: String(lastHour) });
    expect(res.body.data.changes[0]).toMatchObject({ confidence: 1.01, change_percent: null });
  });

  it('when a record is missing at one end, then the token is not found', async () => {
    const res = await change({ tokens: IDS.btc, period: '1w', timestamp: String(NOW_S - 398 * 86_400) });
    expect(res.body.data).toMatchObject({ count: 0, not_found: [IDS.btc] });
  });

  it('when min_confidence is given, then the low-confidence token is set apart', async () => {
    const res = await change({ tokens: `${IDS.brett},${IDS.arb}`, min_confidence: '0.5' });
    expect(res.body.data).toMatchObject({ count: 1, below_confidence: [IDS.brett] });
  });

  it.each([
    ['the period is malformed', { tokens: IDS.btc, period: 'week' }, 'period must be a duration: an optional count then m (minutes), h, d or w, e.g. 4h, 1d, 2w'],
    ['the timestamp is in the future', { tokens: IDS.btc, timestamp: String(NOW_S + 1) }, `timestamp must be Unix seconds no later than now (${NOW_S})`],
    ['the period reaches before 1970', { tokens: IDS.btc, timestamp: '1000', period: '1d' }, 'period 1d reaches before 1970; use a later timestamp or a shorter period'],
  ])('when %s, then 400 says so', async (_case, query, message) => {
    const res = await change(query);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(message);
  });
});
