import { createHash } from 'node:crypto';
import path from 'node:path';
import Redis from 'ioredis';
import { startRedisServer } from '../test/support/redis-server';
import type { ApiPlans } from '../src/domain/plans';
import { BENCH_PLANS } from './bench-setup';
import { median } from './measure';

/**
 * What the admission script alone costs Redis (`usec_per_call` of EVALSHA), for the scripts of one
 * or more source trees, against one redis-server, in alternating rounds: no gateway shares the
 * CPU, so a cut of a microsecond shows where the proxy bench's rounds spread by five.
 *
 *   ADMIT_SOURCES=.tmp/old/src,src [ADMIT_RATE=6000] [ADMIT_SECONDS=5] [ADMIT_ROUNDS=5]
 *   node --conditions=development --import tsx bench/admission-script-cost.ts
 *
 * Each source tree's `data/redis/scripts/admit-script.ts` is loaded (a tree of an older commit:
 * `git archive <commit> gateway/src | tar -x -C .tmp/old`). The data is the bench's: 200 accounts
 * of one key on the plan of 80 calls a second, every call admitted, ADMIT_RATE calls a second in
 * batches every 10 ms (at 6,000 the proxy bench's rate: about 30 calls a second per account, so
 * each log holds about 60 entries). Each secret is written where both layouts read it: in the
 * account's hash (`s:<hash>`, since 2026-11) and in the secrets' own hash (before).
 */
const SOURCES = (process.env.ADMIT_SOURCES ?? 'src').split(',').filter(Boolean);
const RATE = Number(process.env.ADMIT_RATE ?? 6000);
const SECONDS = Number(process.env.ADMIT_SECONDS ?? 5);
const ROUNDS = Number(process.env.ADMIT_ROUNDS ?? 5);
const ACCOUNTS = 200;
const PLANS: ApiPlans = BENCH_PLANS.token;

const accountOf = (i: number): string => `acc_${String(i).padStart(24, '0')}`;
const hashOf = (i: number): string => createHash('sha256').update(`bench-key-${i}`).digest('hex');

async function writeAccounts(redis: Redis): Promise<void> {
  await redis.flushall();
  const pipeline = redis.pipeline();
  for (let i = 0; i < ACCOUNTS; i++) {
    const entry = `key_${i}|0|0|0`;
    pipeline.hset(`gw:{${accountOf(i)}}:acct`, 'email', '', 'name', `bench-${i}`, 'status', 'active', 'created_at', '2026-11-25T00:00:00.000Z', 'sub:token', 'active|bench', `s:${hashOf(i)}`, entry);
    pipeline.hset(`gw:{${accountOf(i)}}:secrets`, hashOf(i), entry);
  }
  await pipeline.exec();
}

/** Sends RATE calls a second for SECONDS; resolves with EVALSHA's usec_per_call and the commands run per call. */
async function run(redis: Redis, sha: string): Promise<{ usec: number; perCall: string; refused: number }> {
  await writeAccounts(redis);
  await redis.config('RESETSTAT');
  let sequence = 0;
  let refused = 0;
  const started = Date.now();
  const sent: Promise<unknown>[] = [];
  await new Promise<void>((resolve) => {
    const timer = setInterval(() => {
      if (Date.now() - started >= SECONDS * 1000) {
        clearInterval(timer);
        resolve();
        return;
      }
      for (let j = 0; j < RATE / 100; j++) {
        const i = sequence++ % ACCOUNTS;
        const tag = `gw:{${accountOf(i)}}`;
        const now = Date.now();
        const call = redis.evalsha(sha, 6, `${tag}:acct`, `${tag}:secrets`, `${tag}:sec:token`, `${tag}:month:token:2026-11`, `${tag}:day:token:2026-11-25`, `${tag}:pg:token:2026-11-25`, hashOf(i), now, `m:${sequence}`, 86_400 * 6, 86_400, now + 5_000);
        sent.push((call as Promise<number[]>).then((reply) => void (reply[0] === 1 || refused++)));
      }
    }, 10);
  });
  await Promise.all(sent);
  const info = await redis.info('commandstats');
  const evalsha = /cmdstat_evalsha:calls=(\d+),usec=\d+,usec_per_call=([\d.]+)/.exec(info)!;
  const calls = Number(evalsha[1]);
  const inside = [...info.matchAll(/cmdstat_([a-z|]+):calls=(\d+)/g)].filter(([, name]) => !['evalsha', 'config|resetstat', 'info'].includes(name!));
  const perCall = inside.map(([, name, n]) => `${name} ${(Number(n) / calls).toFixed(2)}`).join(', ');
  return { usec: Number(evalsha[2]), perCall, refused };
}

async function main(): Promise<void> {
  const server = await startRedisServer();
  const redis = new Redis(server.url);
  try {
    const shas: string[] = [];
    for (const source of SOURCES) {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const { admitScriptFor } = require(path.resolve(source, 'data/redis/scripts/admit-script')) as { admitScriptFor: (api: string, plans: ApiPlans, ttl: number) => string };
      shas.push((await redis.script('LOAD', admitScriptFor('token', PLANS, 60))) as string);
    }
    const usec: number[][] = SOURCES.map(() => []);
    for (let round = 0; round < ROUNDS; round++) {
      const order = SOURCES.map((_, i) => i);
      if (round % 2) order.reverse();
      for (const i of order) {
        const result = await run(redis, shas[i]!);
        usec[i]!.push(result.usec);
        console.log(`round ${round + 1} ${SOURCES[i]}: ${result.usec} µs per admission (${result.refused} not admitted); per call: ${result.perCall}`);
      }
    }
    for (const [i, source] of SOURCES.entries()) console.log(`${source}: median ${median(usec[i]!)} µs per admission (rounds ${usec[i]!.join(', ')})`);
  } finally {
    redis.disconnect();
    await server.stop();
  }
}

void main();
