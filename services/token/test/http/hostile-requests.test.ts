import { checkHostileRequests, sweepHostileValues } from '@tollgate/envelope/test/hostile-requests';
import { ALL_ROUTES } from '../../src/routes/all-routes';
import { IDS, NOW_S, startHarness } from './harness';
import type { Harness } from './harness';

// Thousands of requests each: 5 to 10 s on an idle machine, over 30 s beside other suites at a
// load of 15 to 20 (the services' run of 2026-11-28). The limit says a run hung, not how fast it was.
const HOSTILE_TIMEOUT_MS = 120_000;

// Known ids, chains, periods and times by parameter, beside the suite's own hostile values.
const TIMES = [String(NOW_S - 86_400), String(NOW_S + 86_400), '1', '0', '9999999999'];
const VALUES = {
  tokens: [
    ...Object.values(IDS),
    `${IDS.usdc},${IDS.eth}`,
    'ethereum:constructor',
    '__proto__:0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48',
    'coingecko:__proto__',
    'constructor:0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48',
  ],
  period: ['1d', '4H', '2w', '0d', '00h', '9999w'],
  span: ['1', '30', '500', '501'],
  timestamp: TIMES,
  start: TIMES,
  end: TIMES,
  min_confidence: ['0', '0.5', '1.01'],
};

describe('token under hostile and unusual HTTP (property-based)', () => {
  let h: Harness;
  afterEach(() => h.close());

  it('when any method, path, header, query or body arrives, then the answer is documented: no 5xx, errors in the envelope, 200s as their schema', async () => {
    h = await startHarness();
    await checkHostileRequests(h.app, { routes: ALL_ROUTES, barePaths: ['/v1/openapi.json'], values: VALUES, numRuns: 300 });
  }, HOSTILE_TIMEOUT_MS);

  it('when each hostile value is put in each parameter of each route, then every answer is documented', async () => {
    h = await startHarness();
    await sweepHostileValues(h.app, { routes: ALL_ROUTES, barePaths: ['/v1/openapi.json'], values: VALUES });
  }, HOSTILE_TIMEOUT_MS);

  it('when the price indexer is unreachable, then price routes answer 502/503 in the envelope and nothing else fails', async () => {
    h = await startHarness({ baseUrl: 'http://127.0.0.1:9' });
    await checkHostileRequests(h.app, { routes: ALL_ROUTES, barePaths: ['/v1/openapi.json'], values: VALUES, allowedServerErrors: [502, 503], numRuns: 100 });
  }, HOSTILE_TIMEOUT_MS);
});
