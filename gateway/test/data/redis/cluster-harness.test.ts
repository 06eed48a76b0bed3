import { childrenRunning } from '@tollgate/envelope/test/processes';
import { createServer } from 'node:net';
import type { Server } from 'node:net';
import { useCloseAfterEach } from '../../support/close-after-each';
import { freeClusterPort, startRedisCluster } from '../../support/redis-cluster';

jest.setTimeout(60_000);

// The harness itself: a port found free and then taken, and a node that never starts.
const held: Server[] = [];
afterAll(async () => {
  await Promise.all(held.map((s) => new Promise((resolve) => s.close(resolve))));
});
// A cluster that comes up where a test expects it to fail is stopped after the test all the same.
const closeAfterEach = useCloseAfterEach();

/** Listens on `port` (0: any) on loopback and keeps it, so a redis-server cannot bind it. */
function hold(port = 0): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      held.push(server);
      resolve((server.address() as { port: number }).port);
    });
  });
}

/** Whether anything accepts connections on the loopback port. */
describe('the Redis Cluster test harness', () => {
  it('when a node\'s bus port (+10000) is taken between the check and the start, then that node is started on another port and the cluster comes up', async () => {
    let calls = 0;
    let trap = 0;
    const cluster = await startRedisCluster({
      masters: 3,
      replicasPerMaster: 0,
      pickPort: async (taken) => {
        const port = await freeClusterPort(taken);
        // The first port's bus port is taken by something else once the port has been handed out.
        if (++calls === 1) await hold((trap = port) + 10_000);
        return port;
      },
    });
    try {
      expect(cluster.ports).not.toContain(trap);
      expect(cluster.seeds.split(',')).toHaveLength(3);
      expect((await cluster.describe()).filter((n) => n.role === 'master')).toHaveLength(3);
    } finally {
      await cluster.stop();
    }
    expect(childrenRunning(process.pid, 'redis-server')).toEqual([]);
  });

  it('when one node cannot start at all, then the start fails and no redis-server it started is left running', async () => {
    const handedOut: number[] = [];
    let calls = 0;
    const start = startRedisCluster({
      masters: 3,
      replicasPerMaster: 1,
      pickPort: async (taken) => {
        // The first node's port is one redis-server refuses at once (its bus port would be 75535),
        // long before the five others are ready.
        const port = ++calls === 1 ? 65_535 : await freeClusterPort(taken);
        handedOut.push(port);
        return port;
      },
    });
    void start.then((cluster) => closeAfterEach(cluster, (c) => c.stop()), () => undefined);
    await expect(start).rejects.toThrow(/port number too high/i);
    expect(handedOut.slice(1, 6)).toHaveLength(5);
    // Its own children, not its ports: with four test files at a time, a port the harness freed was
    // once taken by another file's server at once (a CI rehearsal found one listening).
    expect(childrenRunning(process.pid, 'redis-server')).toEqual([]);
  });
});
