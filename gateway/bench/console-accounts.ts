// What the operators' console asks of a store with many accounts: a page of accounts newest first
// (first and deep), their count, a key by its prefix, the month's top accounts. Prints the median
// time of each over ROUNDS (default 50), on the memory store (what SQLite reads from) and Redis,
// and, for the memory store, against the listing it replaced (every account sorted per page).
// Run from gateway/: flock /tmp/tollgate-heavy.lock node --conditions=development --import tsx bench/console-accounts.ts
// ACCOUNTS (default 100000) sets the store's size.
import Redis from 'ioredis';
import { monthWindow } from '../src/domain/windows';
import type { AccountStore } from '../src/data/account-store';
import { pageOf } from '../src/data/memory/account-state';
import { createMemoryStores } from '../src/data/memory/memory-stores';
import { createRedisStores } from '../src/data/redis/redis-stores';
import { startRedisServer } from '../test/support/redis-server';

const ACCOUNTS = Number(process.env.ACCOUNTS ?? 100_000);
const ROUNDS = Number(process.env.ROUNDS ?? 50);

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

async function timed(work: () => Promise<unknown>, rounds = ROUNDS): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const start = process.hrtime.bigint();
    await work();
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return median(times);
}

/** Fills a store: ACCOUNTS accounts of one key each, a call counted for every one this month; returns a prefix and a mid-list cursor. */
async function fill(store: AccountStore): Promise<{ prefix: string; cursor: string }> {
  let prefix = '';
  const dayId = new Date().toISOString().slice(0, 10);
  const batch: Parameters<AccountStore['record']>[0][number][] = [];
  for (let i = 0; i < ACCOUNTS; i++) {
    const account = await store.createAccount({ email: `user${i}@example.com` });
    const key = (await store.createKey(account.id, { name: 'k' }))!;
    if (i === Math.floor(ACCOUNTS / 2)) prefix = key.record.prefix;
    batch.push({ accountId: account.id, api: 'token', dayId, outcome: '2xx', count: 1 + (i % 97) });
    if (batch.length === 1_000) await store.record(batch.splice(0), new Map());
  }
  await store.record(batch, new Map());
  let cursor: string | null = null;
  for (let i = 0; i < 20; i++) cursor = (await store.listAccounts({ limit: 100, newestFirst: true, cursor: cursor ?? undefined })).next_cursor;
  return { prefix, cursor: cursor! };
}

async function measure(name: string, store: AccountStore): Promise<Record<string, string>> {
  const started = Date.now();
  const { prefix, cursor } = await fill(store);
  const month = monthWindow(Date.now()).id;
  const ms = (n: number): string => `${n.toFixed(3)} ms`;
  return {
    store: name,
    'filled in': `${((Date.now() - started) / 1000).toFixed(1)} s`,
    'first page (25, newest)': ms(await timed(() => store.listAccounts({ limit: 25, newestFirst: true }))),
    'page 2,001 rows in': ms(await timed(() => store.listAccounts({ limit: 25, newestFirst: true, cursor }))),
    count: ms(await timed(() => store.countAccounts())),
    'key by prefix': ms(await timed(() => store.findKeysByPrefix(prefix, 50))),
    'top 10 this month': ms(await timed(() => store.topAccounts(month, 10))),
  };
}

async function main(): Promise<void> {
  const rows: Record<string, string>[] = [];
  const memory = createMemoryStores({ clock: Date.now });
  rows.push(await measure('memory', memory.accountStore));
  // The listing it replaced: every account sorted for each page.
  const accounts = (await memory.accountStore.listAccounts({ limit: ACCOUNTS })).items;
  const before = await timed(async () => pageOf(accounts, undefined, 25), 5);
  const after = Number.parseFloat(rows[0]!['first page (25, newest)']!);
  rows.push({ store: 'memory, sorting every account per page (before)', 'first page (25, newest)': `${before.toFixed(3)} ms (${(before / after).toFixed(0)}× the index)` });

  const server = await startRedisServer();
  const redis = new Redis(server.url);
  try {
    rows.push(await measure('redis', createRedisStores(redis, { clock: Date.now }).accountStore));
  } finally {
    await redis.quit();
    await server.stop();
  }
  console.log(`${ACCOUNTS.toLocaleString('en')} accounts, median of ${ROUNDS} rounds each`);
  console.table(rows);
}

void main();
