import { checkHostileRequests, sweepHostileValues } from '@tollgate/envelope/test/hostile-requests';
import { HEALTHZ_ROUTE, createReadyzRoute } from '@tollgate/envelope';
import type { Address } from 'viem';
import { ROUTES } from '../../src/routes/info-route-docs.js';
import { connect, deployErc20, startAnvil, transferErc20, type Anvil } from '../support/anvil.js';
import { buildLogsApp } from '../support/logs-app.js';

// Thousands of requests each: seconds on an idle machine, a minute beside other suites at a load of
// 15 to 20. The limit says a run hung, not how fast it was.
jest.setTimeout(120_000);

const READYZ_ROUTE = createReadyzRoute('Readiness', { required: [], properties: {} });

describe('logs under hostile and unusual HTTP (property-based)', () => {
  let anvil: Anvil;
  let token: Address;
  beforeAll(async () => {
    anvil = await startAnvil({ chainId: 1 });
    const chain = connect(anvil.url);
    token = await deployErc20(chain);
    await transferErc20(chain, token, '0x000000000000000000000000000000000000dEaD', 5n);
  });
  afterAll(() => anvil?.stop());

  // Far above a real deployment's RPC timeout: a test process stalled 2 s (CI has stalled 1.7 s)
  // would turn a served call into a 504, which these properties forbid. Timeouts have tests of their own.
  const PATIENT_RPC_MS = 8_000;

  it('when each hostile value is put in each parameter of each route, then every answer is documented', async () => {
    const { app } = buildLogsApp({ rpcUrls: { ethereum: anvil.url }, rpcTimeoutMs: PATIENT_RPC_MS });
    await sweepHostileValues(app, {
      routes: [...ROUTES, HEALTHZ_ROUTE, READYZ_ROUTE],
      values: { chain: ['ethereum'], token: [token], address: [token] },
      allowedServerErrors: [502],
    });
  });

  it('when any method, path, header, query or body arrives, then the answer is documented: no 5xx but the dead chains\' 502, errors in the envelope, 200s as their schema', async () => {
    // Ethereum is a real anvil; every other chain's RPC is a closed port, so 502 is provoked on purpose.
    const { app } = buildLogsApp({ rpcUrls: { ethereum: anvil.url }, rpcTimeoutMs: PATIENT_RPC_MS });
    const values = [
      'ethereum', '1', 'base', 'bnb', 'celo', token, token.toLowerCase(), `${token},${token}`,
      'Transfer', 'transfer', 'Approval', 'Transfer(address indexed from,address indexed to,uint256 value)',
      '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef', 'latest', 'safe', 'finalized', '0x0', '0', '1', '100', '1000', '1001',
    ];
    await checkHostileRequests(app, {
      routes: [...ROUTES, HEALTHZ_ROUTE, READYZ_ROUTE],
      barePaths: ['/v1/openapi.json'],
      values,
      allowedServerErrors: [502],
      numRuns: 200,
    });
  });
});
