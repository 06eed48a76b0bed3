import { chartRoute } from '../../src/routes/chart-route';
import { LOCAL_COINS, priceAt } from '../support/local-indexer';
import { IDS, NOW_S, manyIds, getChecked, startHarness } from './harness';
import type { Harness } from './harness';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const chart = (query: Record<string, string>) => getChecked(h.app, chartRoute, query);

const HOUR = 3600;
const lastHour = Math.floor(NOW_S / HOUR) * HOUR;

describe('GET /v1/chart', () => {
  it('when a span before an end is asked, then the series is ascending with the record times', async () => {
    const res = await chart({ tokens: `${IDS.sol},${IDS.eth}`, span: '3', period: '4H', end: String(lastHour) });
    expect(res.status).toBe(200);
    const sol = LOCAL_COINS.find((c) => c.id === IDS.sol)!;
    const times = [lastHour - 8 * HOUR, lastHour - 4 * HOUR, lastHour];
    expect(res.body.data).toMatchObject({ period: '4h', period_seconds: 14_400, span: 3, start: null, end: lastHour, count: 2, not_found: [] });
    expect(res.body.data.series[0]).toEqual({
      token: IDS.sol, chain: 'solana', address: IDS.sol.split(':')[1], symbol: 'SOL', decimals: 9, confidence: 0.99,
      points: times.map((t) => ({ timestamp: t, price_usd: priceAt(sol, t) })),
    });
    expect(res.body.data.series[1]).toMatchObject({ token: IDS.eth, decimals: null });
    expect(h.local.calls.at(-1)!.query).toEqual({ span: '3', period: '4h', end: String(lastHour) });
  });

  it('when a start is given, then the points go forward from it', async () => {
    const start = lastHour - 10 * 86_400;
    const res = await chart({ tokens: IDS.btc, span: '2', period: 'd', start: String(start) });
    expect(res.body.data.series[0].points.map((p: { timestamp: number }) => p.timestamp)).toEqual([start, start + 86_400]);
    expect(res.body.data.start).toBe(start);
  });

  it('when neither start nor end is given, then the defaults are 30 daily points up to now', async () => {
    const res = await chart({ tokens: IDS.weth });
    expect(res.body.data).toMatchObject({ period: '1d', span: 30, start: null, end: null });
    expect(res.body.data.series[0].points).toHaveLength(30);
    expect(h.local.calls.at(-1)!.query).toEqual({ span: '30', period: '1d' });
  });

  it('when the indexer has no record for a token, then it is in not_found', async () => {
    const res = await chart({ tokens: `${IDS.unknown},${IDS.btc}`, span: '2' });
    expect(res.body.data.not_found).toEqual([IDS.unknown]);
  });

  it('when tokens × span is exactly 500, then it is served', async () => {
    const res = await chart({ tokens: `${IDS.btc},${IDS.eth}`, span: '250', period: '1h' });
    expect(res.status).toBe(200);
  });

  it.each([
    ['start and end are both given', { tokens: IDS.btc, start: '1767000000', end: '1767100000' }, 'give either start or end, not both'],
    ['the period has no unit', { tokens: IDS.btc, period: '600' }, 'period must be a duration: an optional count then m (minutes), h, d or w, e.g. 4h, 1d, 2w'],
    ['the period unit is unknown', { tokens: IDS.btc, period: '1y' }, 'period must be a duration: an optional count then m (minutes), h, d or w, e.g. 4h, 1d, 2w'],
    ['the span is 0', { tokens: IDS.btc, span: '0' }, 'span must be an integer from 1 to 500'],
    ['start is in the future', { tokens: IDS.btc, start: String(NOW_S + 10) }, `start must be Unix seconds no later than now (${NOW_S})`],
    ['tokens × span exceeds 500', { tokens: manyIds(6).join(','), span: '100' }, "tokens × span must be at most 500 (the price indexer's cap); 6 tokens × 100 points = 600: ask for fewer tokens or a span of at most 83"],
    ['searchWidth is sent', { tokens: IDS.btc, searchWidth: '1h' }, "unknown parameter 'searchWidth'; allowed parameters: tokens, span, period, start, end, min_confidence"],
  ])('when %s, then 400 says so and the indexer is not called', async (_case, query, message) => {
    h.local.calls.length = 0;
    const res = await chart(query);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(message);
    expect(h.local.calls.filter((c) => c.path.startsWith('/chart'))).toEqual([]);
  });
});
