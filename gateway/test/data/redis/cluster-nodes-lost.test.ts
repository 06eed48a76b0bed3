import type { Cluster } from 'ioredis';
import { createLogger } from '@tollgate/envelope';
import { createClusterClient, whenReady } from '../../../src/data/redis/redis-client';
import { redisKeys } from '../../../src/data/redis/redis-keys';
import { createRedisStores } from '../../../src/data/redis/redis-stores';
import { eventually } from '../../support/eventually';
import { startRedisCluster } from '../../support/redis-cluster';
import type { RedisCluster } from '../../support/redis-cluster';

jest.setTimeout(90_000);

// Nodes lost under a connected gateway: what its revocation subscription and persistence check do.
const logger = createLogger({ service: 'test', level: 'silent' });
let redisCluster: RedisCluster;
const clients: Cluster[] = [];

beforeAll(async () => {
  redisCluster = await startRedisCluster();
  // Every node lists each range's replica in CLUSTER SLOTS (gossip spreads it a little after the
  // replicas sync): the gateway picks its subscription's node from there.
  await eventually(
    async () => (await Promise.all(redisCluster.ports.map(async (port) => (await redisCluster.node(port).cluster('SLOTS')) as unknown[][]))).every((ranges) => ranges.every((range) => range.length === 4)),
    'every replica listed in CLUSTER SLOTS',
  );
});
afterAll(async () => {
  for (const c of clients) c.disconnect();
  await redisCluster?.stop();
});

async function connect(): Promise<Cluster> {
  const cluster = createClusterClient(redisCluster.ports.map((port) => ({ host: '127.0.0.1', port })), { logger });
  clients.push(cluster);
  if (!(await whenReady(cluster, 10_000))) throw new Error('the cluster client did not connect');
  return cluster;
}

/** The ports of the live nodes holding a subscription to the revocations channel (PUBSUB NUMSUB is per node). */
async function subscribedNodes(): Promise<number[]> {
  const live = (await redisCluster.describe()).filter((n) => !n.failed).map((n) => n.port);
  // A node just killed is not marked failed yet: it counts as holding none.
  const numsub = (port: number): Promise<number> => redisCluster.node(port).pubsub('NUMSUB', redisKeys.revocations()).then((reply) => Number((reply as [string, number])[1]), () => 0);
  const counts = await Promise.all(live.map(numsub));
  return live.filter((_, i) => counts[i]! > 0);
}

describe('nodes of a Redis Cluster lost under a connected gateway', () => {
  it("when a revocation is published on another shard's master, then a gateway subscribed on a replica hears it; when that replica dies, the gateway subscribes elsewhere, says so, and hears the next", async () => {
    const heard: string[] = [];
    let subscriptions = 0;
    createRedisStores(await connect(), { clock: Date.now }).quotaStore.onRevoked(
      (id) => heard.push(id),
      (up) => void (up && subscriptions++),
    );
    await eventually(async () => subscriptions === 1 && (await subscribedNodes()).length === 1, 'the subscription');
    const nodes = await redisCluster.describe();
    const [on] = await subscribedNodes();
    const subscriber = nodes.find((n) => n.port === on)!;
    expect(subscriber.role).toBe('replica');
    const elsewhere = nodes.find((n) => n.role === 'master' && n.id !== subscriber.masterId)!;
    await redisCluster.node(elsewhere.port).publish(redisKeys.revocations(), 'key_one');
    await eventually(async () => heard.includes('key_one'), 'the revocation published on another shard heard');

    await redisCluster.kill(subscriber.port);
    await eventually(async () => subscriptions === 2 && (await subscribedNodes()).length === 1, 'a new subscription on another node');
    const master = (await redisCluster.describe()).find((n) => n.role === 'master' && !n.failed)!;
    await redisCluster.node(master.port).publish(redisKeys.revocations(), 'key_two');
    await eventually(async () => heard.includes('key_two'), 'the revocation heard on the new subscription');
  });

  it('when a master fails over to a replica that persists nothing, then the persistence the gateway reports becomes none', async () => {
    const cluster = await connect();
    const stores = createRedisStores(cluster, { clock: Date.now });
    await eventually(async () => stores.persistence?.() === 'aof', 'persistence read from every master');
    const nodes = await redisCluster.describe();
    // The replica killed by the test before may not be counted failed yet: one whose process runs.
    const replica = nodes.find((n) => n.role === 'replica' && n.running)!;
    const master = nodes.find((n) => n.id === replica.masterId)!;
    await redisCluster.node(replica.port).config('SET', 'appendonly', 'no');
    await redisCluster.kill(master.port);
    await eventually(async () => (await redisCluster.describe()).some((n) => n.port === replica.port && n.role === 'master'), 'the replica promoted');
    // The slot map is refreshed within 5 s; the new master's settings are read then.
    await eventually(async () => stores.persistence?.() === 'none', 'the promoted replica persisting nothing seen');
  });
});
