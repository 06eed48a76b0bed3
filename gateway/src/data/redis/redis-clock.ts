import type { RedisClient } from './redis-client';

/**
 * Deadlines in Redis's own clock. The scripts compare a deadline with Redis `TIME`, and a gateway
 * host's clock may be ahead or behind: the offset is sampled now and every `intervalMs`, taken at
 * its low bound (the reply's arrival, not its sending), so a deadline can only come early.
 */
export function createRedisClock(redis: RedisClient, wallClock: () => number, intervalMs = 10_000): { deadline(budgetMs: number): number } {
  let offset = 0;
  const sample = (): void => {
    if (redis.status !== 'ready') return;
    redis.time().then(
      ([seconds, micros]) => {
        offset = Number(seconds) * 1000 + Math.floor(Number(micros) / 1000) - wallClock();
      },
      () => undefined,
    );
  };
  redis.on('ready', sample);
  sample();
  setInterval(sample, intervalMs).unref();
  return { deadline: (budgetMs) => wallClock() + offset + budgetMs };
}
