import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Redis from 'ioredis';
import { freePort } from '@tollgate/envelope/test/processes';
import { startRedisServer } from '../test/support/redis-server';
import type { ApiPlans } from '../src/domain/plans';
import { BENCH_PLANS } from './bench-setup';
import { median } from './measure';

/**
 * What the admission script alone costs Redis (`usec_per_call` of EVALSHA), for the scripts of one
 * or more source trees, against one redis-server, in alternating rounds: no gateway shares the
 * CPU, so a cut of a microsecond shows where the proxy bench's rounds spread by five.
 *
 *   ADMIT_SOURCES=.tmp/old/src,src [ADMIT_RATE=6000] [ADMIT_SECONDS=5] [ADMIT_ROUNDS=5] [ADMIT_COUNT=3000]
 *   node --conditions=development --import tsx bench/admission-script-cost.ts
 *
 * With ADMIT_COUNT, it counts instead: each script runs ADMIT_COUNT times in a redis-server under
 * valgrind's callgrind, which counts only inside `evalShaCommand` (the script, its commands and
 * its reply), with the calls' times spaced as ADMIT_RATE calls a second would be: instructions per
 * admission, the same from run to run whatever else the machine does. The counted calls' times
 * start ADMIT_OFFSET_MS (5000) into a ten-second bucket: at 0, every call is in a bucket's first
 * second, where the script (since 2026-11-27) also renews the log's TTL.
 *
 * Each source tree's `data/redis/scripts/admit-script.ts` is loaded (a tree of an older commit:
 * `git archive <commit> gateway/src | tar -x -C .tmp/old`). The data is the bench's: 200 accounts
 * of one key on the bench's plan (bench-setup.ts), every call admitted, ADMIT_RATE calls a second in
 * batches every 10 ms (at 6,000 the proxy bench's rate: about 30 calls a second per account, so
 * each log holds about 60 entries). Each secret is written where the tree's layout keeps it: the
 * field its `record-codec.ts`'s `secretField` names in the account's hash (`s:<hash>` in 2026-11,
 * the bare hash since), or, in a tree older than that, the secrets' own hash.
 */
const SOURCES = (process.env.ADMIT_SOURCES ?? 'src').split(',').filter(Boolean);
const RATE = Number(process.env.ADMIT_RATE ?? 6000);
const SECONDS = Number(process.env.ADMIT_SECONDS ?? 5);
const ROUNDS = Number(process.env.ADMIT_ROUNDS ?? 5);
const ACCOUNTS = 200;
const PLANS: ApiPlans = BENCH_PLANS.token;

const accountOf = (i: number): string => `acc_${String(i).padStart(24, '0')}`;
const hashOf = (i: number): string => createHash('sha256').update(`bench-key-${i}`).digest('hex');

async function writeAccounts(redis: Redis, source: string): Promise<void> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { secretField } = require(path.resolve(source, 'data/redis/record-codec')) as { secretField?: (hash: string) => string };
  await redis.flushall();
  const pipeline = redis.pipeline();
  for (let i = 0; i < ACCOUNTS; i++) {
    const entry = `key_${i}|0|0|0`;
    pipeline.hset(`gw:{${accountOf(i)}}:acct`, 'email', '', 'name', `bench-${i}`, 'status', 'active', 'created_at', '2026-11-25T00:00:00.000Z', 'sub:token', 'active|bench', ...(secretField ? [secretField(hashOf(i)), entry] : []));
    if (!secretField) pipeline.hset(`gw:{${accountOf(i)}}:secrets`, hashOf(i), entry);
  }
  await pipeline.exec();
}

/** A tree's admission script for the bench's plans, and the keys and arguments of one call to it. */
interface TreeScript {
  lua: string;
  args(tag: string, keyHash: string, now: number, member: string, deadline: number): (string | number)[];
}

/**
 * The script a call with an active subscription is sent in a source tree: the batch script, as a
 * batch of one, where the tree has one (since 2026-11-29: what a call alone is sent), else the usual
 * script (since 2026-11-28: three keys, four arguments), else its only one (six and six).
 */
function scriptOf(source: string): TreeScript {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const tree = require(path.resolve(source, 'data/redis/scripts/admit-script')) as Record<string, ((api: string, plans: ApiPlans, ttl: number) => string) | undefined>;
  const usual = tree.usualAdmitBatchScriptFor ?? tree.usualAdmitScriptFor;
  if (usual) return { lua: usual('token', PLANS, 60), args: (tag, keyHash, now, member, deadline) => [3, `${tag}:acct`, `${tag}:sec:token`, `${tag}:month:token:2026-11`, keyHash, now, member, deadline] };
  return {
    lua: tree.admitScriptFor!('token', PLANS, 60),
    args: (tag, keyHash, now, member, deadline) => [6, `${tag}:acct`, `${tag}:secrets`, `${tag}:sec:token`, `${tag}:month:token:2026-11`, `${tag}:day:token:2026-11-25`, `${tag}:pg:token:2026-11-25`, keyHash, now, member, 86_400 * 6, 86_400, deadline],
  };
}

type Reply = (number | number[])[];

/** A reply's outcome: the batch script answers a list of replies (one here), the older scripts the reply itself. */
const outcomeOf = (reply: Reply): number | undefined => (Array.isArray(reply[0]) ? reply[0][0] : reply[0]);

/** Sends RATE calls a second for SECONDS; resolves with EVALSHA's usec_per_call and the commands run per call. */
async function run(redis: Redis, sha: string, source: string, script: TreeScript): Promise<{ usec: number; perCall: string; refused: number }> {
  await writeAccounts(redis, source);
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
        const call = redis.evalsha(sha, ...(script.args(tag, hashOf(i), now, `m:${sequence}`, now + 5_000) as [number, ...string[]]));
        sent.push((call as Promise<Reply>).then((reply) => void (outcomeOf(reply) === 1 || refused++)));
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

/** Instructions inside EVALSHA per admission, ADMIT_COUNT calls in a redis-server under callgrind. */
async function countInstructions(source: string, calls: number): Promise<number> {
  const dir = mkdtempSync(path.join(tmpdir(), 'tollgate-admit-count-'));
  const out = path.join(dir, 'callgrind.out');
  const port = await freePort();
  const child = spawn('valgrind', ['--tool=callgrind', '--collect-atstart=no', '--toggle-collect=evalShaCommand', `--callgrind-out-file=${out}`, '/usr/bin/redis-server', '--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir], { stdio: 'ignore' });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const redis = new Redis({ port, host: '127.0.0.1', retryStrategy: () => 200, maxRetriesPerRequest: null });
  try {
    await redis.ping();
    await writeAccounts(redis, source);
    const script = scriptOf(source);
    const sha = (await redis.script('LOAD', script.lua)) as string;
    // The middle of a ten-second bucket, so the count is the same whatever the clock says: the
    // calls in the first second of each ten also renew their log's TTL (one EXPIRE more each).
    const start = Math.floor(Date.now() / 10_000) * 10_000 + Number(process.env.ADMIT_OFFSET_MS ?? 5_000);
    for (let sequence = 0; sequence < calls; sequence++) {
      const i = sequence % ACCOUNTS;
      const tag = `gw:{${accountOf(i)}}`;
      const now = start + Math.floor((sequence * 1000) / RATE);
      const reply = (await redis.evalsha(sha, ...(script.args(tag, hashOf(i), now, `m:${sequence}`, Date.now() + 600_000) as [number, ...string[]]))) as Reply;
      if (outcomeOf(reply) !== 1) throw new Error(`call ${sequence} was not admitted: ${JSON.stringify(reply)}`);
    }
    // Redis closes the connection instead of answering: the client must not send it again.
    redis.options.retryStrategy = () => null;
    void redis.shutdown('NOSAVE').catch(() => undefined);
    await exited;
    const totals = /^(?:totals|summary): (\d+)/m.exec(readFileSync(out, 'utf8'));
    return Number(totals?.[1] ?? NaN) / calls;
  } finally {
    redis.disconnect();
    child.kill();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  if (process.env.ADMIT_COUNT) {
    for (const source of SOURCES) console.log(`${source}: ${Math.round(await countInstructions(source, Number(process.env.ADMIT_COUNT)))} instructions per admission inside EVALSHA`);
    return;
  }
  const server = await startRedisServer();
  const redis = new Redis(server.url);
  try {
    const scripts = SOURCES.map(scriptOf);
    const shas: string[] = [];
    for (const script of scripts) shas.push((await redis.script('LOAD', script.lua)) as string);
    const usec: number[][] = SOURCES.map(() => []);
    for (let round = 0; round < ROUNDS; round++) {
      const order = SOURCES.map((_, i) => i);
      if (round % 2) order.reverse();
      for (const i of order) {
        const result = await run(redis, shas[i]!, SOURCES[i]!, scripts[i]!);
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
