import { validateResponse, type RouteDoc } from '@tollgate/envelope';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import type { Address } from 'viem';
import { CHAINS_ROUTE, META_ROUTE } from '../../src/routes/info-route-docs.js';
import { LOGS_ROUTE, TRANSFERS_ROUTE } from '../../src/routes/page-route-docs.js';
import { connect, deployErc20, mineBlocks, startAnvil, type Anvil } from '../support/anvil.js';
import { buildLogsApp, type LogsApp } from '../support/logs-app.js';

// A real anvil on a 2-core machine shared with other suites: hooks may take a few seconds.
jest.setTimeout(60_000);

const ZERO_TOPIC = `0x${'0'.repeat(64)}`;
let anvil: Anvil;
let token: Address;
let logsApp: LogsApp;
let silent: Server;
let silentUrl: string;

function get(route: RouteDoc, query: Record<string, string | number>, plan?: string) {
  const req = request(logsApp.app).get(route.path).query(query);
  return (plan ? req.set('x-tollgate-subscription', plan) : req).then((res) => {
    expect(validateResponse(route, res.status, res.body)).toEqual([]);
    return res;
  });
}

beforeAll(async () => {
  anvil = await startAnvil({ chainId: 1 });
  token = await deployErc20(connect(anvil.url));
  await mineBlocks(anvil.url, 1500);
  // Accepts connections and never answers: the RPC timeout must turn this into a 504.
  silent = createServer(() => undefined);
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  silentUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
  logsApp = buildLogsApp({ rpcUrls: { ethereum: anvil.url, base: silentUrl }, maxBlockRange: 1000, rpcTimeoutMs: 300 });
});

afterAll(async () => {
  silent?.closeAllConnections();
  await new Promise((resolve) => silent?.close(resolve));
  await anvil?.stop();
});

describe('errors', () => {
  it.each([
    ['an unknown chain', { chain: 'solana' }, 'chain', /chain must be one of ethereum, base, arbitrum.*celo/],
    ['a bad address', { chain: 'ethereum', address: '0x123' }, 'address', /address must be 0x-prefixed 20-byte hex addresses.*'0x123'/],
    ['an empty address item', { chain: 'ethereum', address: `${ZERO_TOPIC.slice(0, 42)},` }, 'address', /without empty items/],
    ['a bad topic', { chain: 'ethereum', topic1: '0xzz' }, 'topic1', /topic1 must be 0x-prefixed 32-byte hex topics/],
    ['an unknown event name', { chain: 'ethereum', event: 'Teleport' }, 'event', /event must be a known name \(Transfer, Approval, .*\) or a full signature/],
    ['a broken signature', { chain: 'ethereum', event: 'Transfer(address indexed from,uint999 x)' }, 'event', /event must be a known name/],
    ['event and topic0 together', { chain: 'ethereum', event: 'Transfer', topic0: ZERO_TOPIC }, 'event', /either event or topic0/],
    ['a bad block', { chain: 'ethereum', from_block: 'yesterday' }, 'from_block', /from_block must be a block number .* or one of latest, safe, finalized/],
    ['a negative block', { chain: 'ethereum', to_block: '-5' }, 'to_block', /to_block must be a block number/],
    ['from after to', { chain: 'ethereum', from_block: 900, to_block: 800 }, 'from_block', /from_block 900 is after to_block 800; a request spans at most 1000 blocks/],
    ['a range over the maximum', { chain: 'ethereum', from_block: 0, to_block: 1200 }, 'to_block', /spans 1201 blocks; the maximum is 1000 blocks/],
    ['from beyond the head', { chain: 'ethereum', from_block: 10_000_000 }, 'from_block', /beyond the chain head/],
    ['a limit over 1000', { chain: 'ethereum', limit: 5000 }, 'limit', /limit must be an integer from 1 to 1000/],
    ['an unknown parameter', { chain: 'ethereum', topic4: ZERO_TOPIC }, 'topic4', /unknown parameter 'topic4'/],
    ['a missing chain', {}, 'chain', /chain is required/],
    ['a damaged cursor', { chain: 'ethereum', cursor: 'bm90IGEgY3Vyc29y' }, 'cursor', /cursor must be a cursor returned by this endpoint/],
  ])('when given %s, then 400 names the parameter', async (_name, query, parameter, message) => {
    const res = await get(LOGS_ROUTE, query);
    expect(res.status).toBe(400);
    expect(res.body.error).toEqual({ code: 'BAD_REQUEST', details: { parameter } });
    expect(res.body.message).toMatch(message);
  });

  it('when a cursor is replayed on another query, then 400 says it belongs elsewhere', async () => {
    const first = await get(LOGS_ROUTE, { chain: 'ethereum', from_block: 0, to_block: 999, limit: 1 });
    expect(first.body.data.cursor).toEqual(expect.any(String));
    const res = await get(LOGS_ROUTE, { chain: 'ethereum', address: token, cursor: first.body.data.cursor });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/cursor belongs to a different query/);
    const transfers = await get(TRANSFERS_ROUTE, { chain: 'ethereum', token, cursor: first.body.data.cursor });
    expect(transfers.status).toBe(400);
  });

  it('when transfers lack a token, then 400 names it', async () => {
    const res = await get(TRANSFERS_ROUTE, { chain: 'ethereum' });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/token is required/);
  });

  it('when the chain RPC is unreachable, then 502', async () => {
    const res = await get(LOGS_ROUTE, { chain: 'arbitrum' });
    expect(res.status).toBe(502);
    expect(res.body.error.code).toBe('UPSTREAM_UNAVAILABLE');
    expect(res.body.message).toMatch(/Arbitrum One RPC is unreachable/);
  });

  it('when the chain RPC does not answer in time, then 504', async () => {
    const res = await get(LOGS_ROUTE, { chain: 'base' });
    expect(res.status).toBe(504);
    expect(res.body.error.code).toBe('UPSTREAM_TIMEOUT');
  });
});

describe('plan gating', () => {
  it.each([
    ['free', { event: 'Transfer' }, 'event', 'starter'],
    ['free', { topic2: ZERO_TOPIC }, 'topic2', 'starter'],
    ['free', { chain: 'avalanche' }, 'chain', 'pro'],
    ['starter', { chain: 'celo' }, 'chain', 'pro'],
    ['an unknown plan', { event: 'Transfer' }, 'event', 'starter'],
  ])('when the %s plan asks for %j, then 403 names the %s… plan', async (plan, query, parameter, required) => {
    const res = await get(LOGS_ROUTE, { chain: 'ethereum', ...query }, plan);
    expect(res.status).toBe(403);
    expect(res.body.error).toMatchObject({ code: 'FORBIDDEN', details: { parameter, required_plan: required } });
    expect(res.body.message).toContain(`from the ${required} plan`);
  });

  it('when the free plan filters transfers by sender, then 403 names starter; without filters it is served', async () => {
    const gated = await get(TRANSFERS_ROUTE, { chain: 'ethereum', token, from: token }, 'free');
    expect(gated.status).toBe(403);
    expect(gated.body.error.details.required_plan).toBe('starter');
    const served = await get(TRANSFERS_ROUTE, { chain: 'ethereum', token, from_block: 0, to_block: 10 }, 'free');
    expect(served.status).toBe(200);
    expect(served.body.data.count).toBe(1);
  });

  it.each([
    ['starter', { event: 'Transfer', chain: 'polygon' }],
    ['pro', { chain: 'avalanche' }],
    ['business', { chain: 'celo' }],
  ])('when the %s plan asks for %j, then it passes the gate (and reaches the RPC)', async (plan, query) => {
    const res = await get(LOGS_ROUTE, query, plan);
    expect(res.status).toBe(502);
  });

  it('when chains are listed, then each says whether the plan includes it', async () => {
    const res = await get(CHAINS_ROUTE, {}, 'starter');
    expect(res.status).toBe(200);
    expect(res.body.data.plan).toBe('starter');
    expect(res.body.data.chains).toHaveLength(14);
    const included = res.body.data.chains.filter((c: { included: boolean }) => c.included).map((c: { slug: string }) => c.slug);
    expect(included).toEqual(['ethereum', 'base', 'arbitrum', 'optimism', 'bnb', 'polygon']);
    expect(res.body.data.chains[0]).toEqual({ slug: 'ethereum', id: 1, name: 'Ethereum', included: true, plan_required: 'free' });
    const top = await get(CHAINS_ROUTE, {});
    expect(top.body.data.chains.every((c: { included: boolean }) => c.included)).toBe(true);
  });
});

describe('service endpoints', () => {
  it('when meta is asked, then it lists limits, plans and at least 16 event selectors', async () => {
    const res = await get(META_ROUTE, {});
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ service: 'logs', max_block_range: 1000, default_limit: 100, max_limit: 1000 });
    expect(new Set(res.body.data.events.map((e: { topic0: string }) => e.topic0)).size).toBeGreaterThanOrEqual(16);
  });

  it('when the OpenAPI document is asked, then it is 3.1 and documents every route', async () => {
    const res = await request(logsApp.app).get('/v1/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.1.0');
    expect(Object.keys(res.body.paths)).toEqual(['/v1/logs', '/v1/transfers', '/v1/chains', '/v1/meta']);
    expect(res.body.paths['/v1/logs'].get.parameters.map((p: { name: string }) => p.name)).toContain('topic3');
    const meta = await request(logsApp.app).get('/v1/meta');
    expect(res.body['x-plan-features'].plans).toEqual(meta.body.data.plans);
    expect(res.body['x-plan-features'].plans.map((p: { topic_filtering: boolean }) => p.topic_filtering)).toEqual([false, true, true, true]);
  });

  it('when health is asked, then /healthz and /readyz answer in the envelope', async () => {
    const health = await request(logsApp.app).get('/healthz');
    expect(health.body).toMatchObject({ status: 'ok', data: { status: 'alive' } });
    const ready = await request(logsApp.app).get('/readyz');
    expect(ready.status).toBe(200);
  });

  it('when a route does not exist, then 404 in the envelope', async () => {
    const res = await request(logsApp.app).get('/v1/nope');
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('NOT_FOUND');
  });
});
