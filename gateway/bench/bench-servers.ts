import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startRedisServer } from '../test/support/redis-server';
import type { RedisServer } from '../test/support/redis-server';
import { BENCH_ADMIN_TOKEN, BENCH_PROXY_SECRET, writeBenchPlans } from './bench-setup';
import { startChild } from './child-server';
import type { ChildServer } from './child-server';

/** What a bench run of one gateway (or a few) stands on. */
export interface BenchServers {
  redis: RedisServer;
  upstream: ChildServer;
  /** A scratch folder, removed after the run. */
  dir: string;
  /** The gateway's environment: the upstream as `token`, the bench's plans, token and secret, the Redis store. */
  env: Record<string, string>;
}

/** Runs `run` with a redis-server, the bench upstream and a scratch folder, and stops them after. */
export async function withBenchServers<T>(run: (servers: BenchServers) => Promise<T>): Promise<T> {
  const redis = await startRedisServer();
  const upstream = await startChild('bench/upstream.ts', {});
  const dir = mkdtempSync(path.join(tmpdir(), 'tollgate-bench-'));
  try {
    const env = { TOKEN_URL: upstream.url, PLANS_FILE: writeBenchPlans(dir), ADMIN_TOKEN: BENCH_ADMIN_TOKEN, PROXY_SECRET: BENCH_PROXY_SECRET, REDIS_URL: redis.url };
    return await run({ redis, upstream, dir, env });
  } finally {
    await upstream.stop();
    await redis.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Runs a bench script's `main`; a failure is printed and ends the process with 1. */
export function runBench(main: () => Promise<void>): void {
  main().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
