import Redis from 'ioredis';
import { closeRedis, disconnectRedis } from '../../../src/data/redis/close-redis';
import { buildGateway } from '../../support/gateway-fixture';
import { useCloseAfterEach } from '../../support/close-after-each';
import { startRedisServer } from '../../support/redis-server';
import { useStarted } from '../../support/use-started';

// ioredis's disconnect() on a client whose socket has already closed arms a 2 s timer nothing
// clears; those left by the last file a Jest worker ran kept the worker from exiting, and Jest
// force-exited it (close-redis.ts). Each case closes a client the way a test or the gateway does and
// asserts that the close arms no timer. The timers are watched, not replaced: the spy calls through.

const env = useStarted(async () => {
  const server = await startRedisServer();
  return { server, close: () => server.stop() };
});
const closeAfterEach = useCloseAfterEach();

let set: jest.SpyInstance;
beforeEach(() => {
  set = jest.spyOn(global, 'setTimeout');
});
afterEach(() => jest.restoreAllMocks());

/** The delays of the timers armed while `act` ran. */
async function timersArmedBy(act: () => unknown): Promise<unknown[]> {
  const from = set.mock.calls.length;
  await act();
  return set.mock.calls.slice(from).map((args) => args[1]);
}

const ended = (client: Redis): Promise<void> => (client.status === 'end' ? Promise.resolve() : new Promise((resolve) => client.once('end', () => resolve())));

describe('closing an ioredis client arms no timer once its socket has closed', () => {
  it('when closeRedis is called on a client it has closed already, then the second call arms none', async () => {
    const client = closeAfterEach(new Redis(env.server.url), disconnectRedis);
    await client.ping();
    await closeRedis(client);
    await ended(client);
    expect(await timersArmedBy(() => closeRedis(client))).toEqual([]);
  });

  it('when the server of a client that does not reconnect has gone, then disconnectRedis arms none', async () => {
    const server = closeAfterEach(await startRedisServer(), (s) => s.stop());
    const client = closeAfterEach(new Redis({ port: server.port, host: '127.0.0.1', retryStrategy: () => null }), disconnectRedis);
    client.on('error', () => undefined);
    await client.ping();
    await server.stop();
    await ended(client);
    expect(await timersArmedBy(() => disconnectRedis(client))).toEqual([]);
  });

  it('when a test closes its gateway fixture twice (afterEach, then the next build), then the second close arms none', async () => {
    const gw = await buildGateway({ upstream: 'http://127.0.0.1:9', redisUrl: env.server.url });
    await gw.close();
    expect(await timersArmedBy(() => gw.close())).toEqual([]);
  });
});
