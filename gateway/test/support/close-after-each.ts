/** Closes one thing a test opened. */
type Close = () => unknown;

/**
 * What a test opens in its body (a Redis client, a redis-server, an HTTP server, a process),
 * closed after that test whether it passed or failed. A test that closes such a thing on its last
 * line leaves it open when an expectation above that line fails, and the open handle keeps jest
 * from exiting: CI would hang instead of failing. Called once in a file (or block), before its
 * tests; the function it returns registers one thing with its close and hands the thing back:
 *
 *     const closeAfterEach = useCloseAfterEach();
 *     const redis = closeAfterEach(new Redis(url), disconnectRedis);
 *
 * Things are closed newest first (a client before the server it talks to), every one even when
 * another's close fails. A close also runs when the test closed the thing itself, so it must be
 * harmless then (`stop()`, `disconnectRedis`; not ioredis's `quit()`, which refuses a closed client).
 */
export function useCloseAfterEach(): <T>(thing: T, close: (thing: T) => unknown) => T {
  const opened: Close[] = [];
  afterEach(async () => {
    const failures: unknown[] = [];
    for (const close of opened.splice(0).reverse()) {
      try {
        await close();
      } catch (err) {
        failures.push(err);
      }
    }
    if (failures.length) throw failures[0];
  });
  return (thing, close) => {
    opened.push(() => close(thing));
    return thing;
  };
}

// A test's close for an ioredis client (why a plain disconnect() will not do: close-redis.ts).
export { disconnectRedis } from '../../src/data/redis/close-redis';
