import http from 'node:http';
import path from 'node:path';
import { CloudEvent } from 'cloudevents';
import request from 'supertest';
import { redisKeys } from '../../src/data/redis/redis-keys';
import type { UsageData } from '../../src/events/usage-stream';
import { useCloseAfterEach } from '../support/close-after-each';
import { startEchoUpstream } from '../support/echo-upstream';
import { eventually } from '../support/eventually';
import { buildGateway } from '../support/gateway-fixture';
import { runGatewayScript } from '../support/gateway-process';
import type { GatewayProcess } from '../support/gateway-process';
import { ADMIN_TOKEN, insideOneMonth, startClusterGateways, startRedisGateways } from '../support/quota-gateways';
import type { QuotaGateways } from '../support/quota-gateways';
import { rawCall } from '../support/raw-http';
import { startUsageReceiver } from '../support/usage-receiver';
import { useStarted } from '../support/use-started';
import type { UsageReceiver } from '../support/usage-receiver';

jest.setTimeout(240_000);

type Event = CloudEvent<UsageData>;
/** Gateways started once for a block, stopped after it. */
const useGateways = <T extends QuotaGateways>(start: () => Promise<T>): T =>
  useStarted(async () => {
    const started = await start();
    return Object.assign(started, { close: () => started.stop() });
  });
const closeAfterEach = useCloseAfterEach();
const EXAMPLE = path.resolve(__dirname, '../../examples/usage-to-totals/usage-to-totals.ts');

/** `total` calls with request ids `<prefix>-<i>`, alternating keys and gateways; the status each got, by id. */
async function calls(gateways: GatewayProcess[], keys: string[], total: number, prefix: string, during?: (answered: number) => Promise<void> | void): Promise<Map<string, number>> {
  const agents = gateways.map(() => new http.Agent({ keepAlive: true, maxSockets: 32 }));
  const statuses = new Map<string, number>();
  try {
    await Promise.all(
      Array.from({ length: total }, async (_, i) => {
        const g = i % gateways.length;
        const id = `${prefix}-${i}`;
        const res = await rawCall(`${gateways[g]!.url}/token/v1/prices?i=${i}`, { agent: agents[g], headers: { 'x-tollgate-key': keys[i % keys.length]!, 'x-request-id': id }, timeoutMs: 60_000 });
        statuses.set(id, res.status);
        await during?.(statuses.size);
      }),
    );
  } finally {
    agents.forEach((agent) => agent.destroy());
  }
  return statuses;
}

/** The events of every shard, read with XRANGE and built (validated) by the cloudevents package. */
async function streamEvents(env: QuotaGateways, shards: number): Promise<Event[]> {
  const all: Event[] = [];
  for (let shard = 0; shard < shards; shard++) {
    const key = redisKeys.usageStream(shard);
    const entries = await (await env.nodeFor(key)).xrange(key, '-', '+');
    for (const [, fields] of entries) all.push(new CloudEvent<UsageData>(JSON.parse(fields[1]!) as Event));
  }
  return all;
}

/** The request id an event carries (its `requestid` extension). */
const requestIdOf = (event: Event): string => event.requestid as string;

/** Checks the events against the calls: one per call, its id the gateway's, its request id the call's, its status and outcome the answer's. */
function expectOnePerCall(events: Event[], statuses: Map<string, number>, accountId: string): void {
  expect(new Set(events.map((e) => e.id)).size).toBe(statuses.size);
  expect(new Set(events.map(requestIdOf)).size).toBe(statuses.size);
  for (const event of events) {
    const status = statuses.get(requestIdOf(event));
    expect([requestIdOf(event), event.data?.status]).toEqual([requestIdOf(event), status]);
    expect(event.data?.outcome).toBe(status === 200 ? 'served' : 'quota_exceeded');
    expect(event).toMatchObject({ specversion: '1.0', type: 'dev.tollgate.api.call', subject: accountId, datacontenttype: 'application/json' });
  }
}

/** `tollgate_usage_events_dropped_total` of one gateway. */
async function dropped(gateway: GatewayProcess): Promise<number> {
  const res = await rawCall(`${gateway.url}/metrics`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
  return Number(/^tollgate_usage_events_dropped_total (\d+)$/m.exec(res.body)?.[1]);
}

/** Runs of one background loop with one outcome, from `/metrics`. */
async function loopRuns(gateway: GatewayProcess, loop: string, outcome: 'ok' | 'failed'): Promise<number> {
  const res = await rawCall(`${gateway.url}/metrics`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
  return Number(new RegExp(`^tollgate_background_runs_total\\{loop="${loop}",outcome="${outcome}"\\} (\\d+)$`, 'm').exec(res.body)?.[1]);
}

/** The usage stream's loop as `/readyz` shows it. */
async function usageLoop(gateway: GatewayProcess): Promise<{ failures_in_a_row: number; last_failure?: { error: string } }> {
  const res = await rawCall(`${gateway.url}/readyz`);
  return (res.json!.data as { background: Record<string, { failures_in_a_row: number; last_failure?: { error: string } }> }).background.usage_stream!;
}

/** The example consumer's totals (`--once`: it stops when the stream is drained). */
async function exampleTotals(env: Record<string, string>): Promise<{ accounts: Record<string, { calls: number; outcomes: Record<string, number> }>; events: number }> {
  const run = await runGatewayScript(EXAMPLE, ['--once'], env);
  expect(run.stderr).toBe('');
  return JSON.parse(run.stdout.trim().split('\n').at(-1)!) as never;
}

describe('the usage stream on Redis, two gateways', () => {
  const Q = 8_000;
  const env = useGateways(() => startRedisGateways({ count: 2, quota: Q, env: { USAGE_EVENTS: 'redis', REDIS_TIMEOUT_MS: '5000' } }));

  it('when 10,000 calls go through two gateways, then the stream holds 10,000 CloudEvents with 10,000 distinct ids, each carrying its call’s request id and matching its answer, and the example consumer totals them', async () => {
    await insideOneMonth(120_000);
    const { accountId, keys } = await env.account();
    const statuses = await calls(env.gateways, keys.map((k) => k.key), 10_000, 'redis');
    expect([...statuses.values()].filter((s) => s === 200)).toHaveLength(Q);
    let events: Event[] = [];
    await eventually(async () => (events = await streamEvents(env, 1)).length >= 10_000, 'every event in the stream');
    expect(events).toHaveLength(10_000);
    expectOnePerCall(events, statuses, accountId);
    expect(new Set(events.map((e) => e.source)).size).toBe(2);
    for (const g of env.gateways) expect(await dropped(g)).toBe(0);
    const totals = await exampleTotals({ USAGE_REDIS_URL: env.storeEnv.REDIS_URL! });
    expect(totals.accounts[accountId]).toMatchObject({ calls: 10_000, outcomes: { served: Q, quota_exceeded: 2_000 } });
  });
});

describe('the usage stream as HTTP batches', () => {
  let receiver: UsageReceiver;
  beforeAll(async () => {
    receiver = await startUsageReceiver();
  });
  afterAll(() => receiver.close());

  it('when a call is served, refused or fails upstream, then its event names the route template, method, status, outcome, latencies and bytes', async () => {
    const upstream = closeAfterEach(await startEchoUpstream({ routes: ['/v1/prices/{chain}', '/v1/status/{code}'] }), (u) => u.close());
    const gw = closeAfterEach(await buildGateway({ upstream: upstream.url, start: Date.now(), env: { USAGE_EVENTS: 'http', USAGE_EVENTS_URL: receiver.url, USAGE_EVENTS_SOURCE: 'urn:tollgate:gateway:test' } }), (g) => g.close());
    const { key, record } = await gw.stores.keyStore.create({ owner: 'stream@example.com', subscriptions: { token: { plan: 'free', status: 'active' } } });
    await eventually(async () => (await request(gw.app).get('/token/v1/prices/eth?vs=usd&key=secret').set('x-tollgate-key', key).set('x-request-id', 'served-1')).status === 200, 'the service document');
    const served = await request(gw.app).get('/token/v1/prices/eth?vs=usd').set('x-tollgate-key', key).set('x-request-id', 'served-2');
    await request(gw.app).get('/token/v1/status/502').set('x-tollgate-key', key).set('x-request-id', 'failed-1');
    for (let i = 0; i < 4; i++) await request(gw.app).get('/token/v1/prices/eth').set('x-tollgate-key', key).set('x-request-id', `more-${i}`);
    await gw.events.usageStream!.flush();
    const byId = new Map(receiver.events.map((e) => [requestIdOf(e), e]));
    expect(byId.get('served-2')).toMatchObject({ source: 'urn:tollgate:gateway:test', subject: record.account_id, data: { api: 'token', plan: 'free', key_id: record.id, method: 'GET', route: '/v1/prices/{chain}', status: 200, outcome: 'served', response_bytes: Buffer.byteLength(served.text) } });
    expect(byId.get('served-2')!.data!.upstream_latency_ms).toBeGreaterThanOrEqual(0);
    expect(byId.get('served-2')!.data!.duration_ms).toBeGreaterThanOrEqual(byId.get('served-2')!.data!.upstream_latency_ms!);
    expect(JSON.stringify(receiver.events)).not.toContain('secret');
    expect(byId.get('failed-1')?.data).toMatchObject({ route: '/v1/status/{code}', status: 502, outcome: 'upstream_error' });
    expect(byId.get('more-3')?.data).toMatchObject({ status: 429, outcome: 'quota_exceeded', upstream_latency_ms: null });
  });

  it('when 31 calls are sent with one request id, then 31 events arrive with 31 distinct ids, each carrying that request id, and a consumer deduping on source and id counts 31', async () => {
    const upstream = closeAfterEach(await startEchoUpstream(), (u) => u.close());
    const gw = closeAfterEach(await buildGateway({ upstream: upstream.url, start: Date.now(), env: { USAGE_EVENTS: 'http', USAGE_EVENTS_URL: receiver.url, USAGE_EVENTS_SOURCE: 'urn:tollgate:gateway:same-id' } }), (g) => g.close());
    const { key } = await gw.stores.keyStore.create({ owner: 'same-id@example.com', subscriptions: { token: { plan: 'pro', status: 'active' } } });
    for (let i = 0; i < 31; i++) expect((await request(gw.app).get('/token/v1/prices').set('x-tollgate-key', key).set('x-request-id', 'one-id-for-all')).status).toBe(200);
    await gw.events.usageStream!.flush();
    const mine = receiver.events.filter((e) => e.source === 'urn:tollgate:gateway:same-id');
    expect(mine).toHaveLength(31);
    expect(new Set(mine.map((e) => `${e.source} ${e.id}`)).size).toBe(31);
    expect(new Set(mine.map(requestIdOf))).toEqual(new Set(['one-id-for-all']));
  });

  describe('two gateways', () => {
    const env = useGateways(() => startRedisGateways({ count: 2, quota: 1_000_000, env: { USAGE_EVENTS: 'http', USAGE_EVENTS_URL: receiver.url, REDIS_TIMEOUT_MS: '5000' } }));

    it('when the sink is killed and restarted mid-run, then every call’s event arrives once it is back (nothing lost within the buffer) and none is dropped', async () => {
      await insideOneMonth(120_000);
      const { accountId, keys } = await env.account();
      const before = receiver.events.length;
      const statuses = await calls(env.gateways, keys.map((k) => k.key), 4_000, 'http', async (answered) => {
        if (answered === 1_000) await receiver.kill();
        if (answered === 3_000) await receiver.restart();
      });
      await eventually(async () => new Set(receiver.events.slice(before).map((e) => e.id)).size >= 4_000, 'every event after the restart');
      const events = [...new Map(receiver.events.slice(before).map((e) => [e.id, e])).values()];
      expectOnePerCall(events, statuses, accountId);
      for (const g of env.gateways) expect(await dropped(g)).toBe(0);
    });
  });

  describe('a gateway with a buffer of 100', () => {
    const env = useGateways(() => startRedisGateways({ count: 1, quota: 1_000_000, env: { USAGE_EVENTS: 'http', USAGE_EVENTS_URL: receiver.url, USAGE_EVENTS_BUFFER: '100' } }));

    it('when the sink is away for 500 calls, then 100 are kept and sent when it is back, 400 dropped and counted, and a log line says so', async () => {
      const { keys } = await env.account();
      await receiver.kill();
      const before = receiver.events.length;
      const statuses = await calls(env.gateways, keys.map((k) => k.key), 500, 'drop');
      expect([...new Set(statuses.values())]).toEqual([200]);
      const gateway = env.gateways[0]!;
      expect(await dropped(gateway)).toBe(400);
      // The sink's refusals are the usage_stream loop's failures: logged, counted, in /readyz; the API path went on.
      await eventually(async () => (await loopRuns(gateway, 'usage_stream', 'failed')) >= 1, 'a failed run counted');
      const failing = await usageLoop(gateway);
      expect(failing.failures_in_a_row).toBeGreaterThanOrEqual(1);
      expect(failing.last_failure?.error).toContain('usage events not taken by the sink');
      expect(gateway.output.some((line) => line.includes('background loop usage_stream failed'))).toBe(true);
      await receiver.restart();
      await eventually(async () => receiver.events.length - before >= 100, 'the 100 kept');
      await eventually(async () => (await usageLoop(gateway)).failures_in_a_row === 0, 'the loop’s next success');
      expect(new Set(receiver.events.slice(before).map((e) => e.id)).size).toBe(100);
      expect(await dropped(gateway)).toBe(400);
      expect(gateway.output.some((line) => line.includes('usage events dropped: the sink does not keep up'))).toBe(true);
    });
  });
});

describe('the usage stream on a Redis Cluster', () => {
  const env = useGateways(() => startClusterGateways({ count: 2, quota: 1_000_000, env: { USAGE_EVENTS: 'redis', REDIS_TIMEOUT_MS: '5000' } }));

  it('when calls of many accounts go through two gateways, then their events spread over 8 stream shards on every master, one per call, and the example consumer reads them all', async () => {
    const accounts = await Promise.all(Array.from({ length: 12 }, () => env.account()));
    const statuses = await calls(env.gateways, accounts.map((a) => a.keys[0]!.key), 1_200, 'cluster');
    let events: Event[] = [];
    await eventually(async () => (events = await streamEvents(env, 8)).length >= 1_200, 'every event in the shards');
    expect(new Set(events.map((e) => e.id)).size).toBe(1_200);
    for (const e of events) expect(e.data?.status).toBe(statuses.get(requestIdOf(e)));
    const masters = new Set(await Promise.all(Array.from({ length: 8 }, async (_, s) => env.redisCluster.masterOf(await env.redisCluster.slotOf(redisKeys.usageStream(s))))));
    expect(masters.size).toBe(3);
    const totals = await exampleTotals({ USAGE_REDIS_CLUSTER_NODES: env.redisCluster.seeds });
    expect(totals.events).toBe(1_200);
    expect(Object.values(totals.accounts).reduce((sum, a) => sum + a.calls, 0)).toBe(1_200);
  });
});
