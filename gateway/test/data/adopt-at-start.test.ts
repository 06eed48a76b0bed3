import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import Redis from 'ioredis';
import { createLogger } from '@tollgate/envelope';
import { openStores } from '../../src/data/open-stores';
import { createRedisStores } from '../../src/data/redis/redis-stores';
import { redisKeys } from '../../src/data/redis/redis-keys';
import { openSqliteStores } from '../../src/data/sqlite/sqlite-stores';
import { adoptedPersonId } from '../../src/data/team-store';
import type { Stores } from '../../src/data/stores';
import { disconnectRedis, useCloseAfterEach } from '../support/close-after-each';
import { startRedisServer } from '../support/redis-server';
import type { RedisServer } from '../support/redis-server';
import { manualClock } from './store-contract';

const logger = createLogger({ service: 'test', level: 'silent' });
const clock = manualClock(Date.parse('2026-03-10T12:00:00.000Z'));
let server: RedisServer;
let dir: string;
beforeAll(async () => {
  server = await startRedisServer();
  dir = mkdtempSync(path.join(tmpdir(), 'tollgate-adopt-'));
});
afterAll(async () => {
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
});
const closeAfterEach = useCloseAfterEach();

const owners = async (stores: Stores, ids: string[]) => Promise.all(ids.map(async (id) => (await stores.teamStore.listMembers(id)).map((m) => [m.person_id, m.role])));

/** Leaves a store file as a gateway from before teams wrote it: no people, members or invitations. */
function dropTeamTables(file: string): void {
  const raw = new Database(file);
  raw.exec('DROP TABLE people; DROP TABLE team_members; DROP TABLE team_invitations;');
  raw.close();
}

describe('the adoption walk at start', () => {
  it('when the embedded file was written before teams, then opening it makes every account with an address a team of one, and opening it again changes nothing', async () => {
    const file = path.join(dir, 'tollgate.db');
    const before = openSqliteStores({ path: file, clock: clock.now, flushEveryMs: 60_000 });
    const a = await before.stores.accountStore.createAccount({ email: 'a@before.example' });
    const b = await before.stores.accountStore.createAccount({ email: 'b@before.example' });
    const keyless = await before.stores.accountStore.createAccount({ email: null, name: 'from a key' });
    before.close();
    dropTeamTables(file);

    const opened = await openStores({ storePath: file, redisTimeoutMs: 1_000, clock: clock.now, logger });
    try {
      await opened.adopted;
      expect(await owners(opened.stores, [a.id, b.id, keyless.id])).toEqual([[[adoptedPersonId(a.id), 'owner']], [[adoptedPersonId(b.id), 'owner']], []]);
    } finally {
      opened.close?.();
    }
    const again = await openStores({ storePath: file, redisTimeoutMs: 1_000, clock: clock.now, logger });
    try {
      await again.adopted;
      expect(await owners(again.stores, [a.id, b.id])).toEqual([[[adoptedPersonId(a.id), 'owner']], [[adoptedPersonId(b.id), 'owner']]]);
    } finally {
      again.close?.();
    }
  });

  it('when the embedded file holds many accounts written before teams, then the walk lets the event loop turn between them: a timer set once the stores are open fires before it ends', async () => {
    const file = path.join(dir, 'many.db');
    const before = openSqliteStores({ path: file, clock: clock.now, flushEveryMs: 60_000 });
    const ids: string[] = [];
    for (let i = 0; i < 300; i++) ids.push((await before.stores.accountStore.createAccount({ email: `m${i}@before.example` })).id);
    before.close();
    dropTeamTables(file);

    const opened = await openStores({ storePath: file, redisTimeoutMs: 1_000, clock: clock.now, logger });
    try {
      let walked = false;
      void opened.adopted!.then(() => (walked = true));
      // A request's turn: before the fix the walk ran as one chain of settled promises, and this
      // timer (like the listening socket) waited for all 300 accounts.
      await new Promise((resolve) => setTimeout(resolve, 0));
      expect(walked).toBe(false);
      await opened.adopted;
      expect((await owners(opened.stores, ids)).filter((members) => members.length === 1)).toHaveLength(300);
    } finally {
      opened.close?.();
    }
  });

  it('when Redis holds accounts written before teams, then the first start adopts them all and marks the store, and a later start reads only the mark', async () => {
    const redis = closeAfterEach(new Redis(server.url), disconnectRedis);
    await redis.flushall();
    const old = createRedisStores(redis, { clock: clock.now });
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push((await old.accountStore.createAccount({ email: `r${i}@before.example` })).id);

    const first = await openStores({ redisUrl: server.url, storePath: ':memory:', redisTimeoutMs: 1_000, clock: clock.now, logger });
    closeAfterEach(first.redis!, disconnectRedis);
    await first.adopted;
    expect(await owners(first.stores, ids)).toEqual(ids.map((id) => [[adoptedPersonId(id), 'owner']]));
    expect(await redis.get(redisKeys.teamsAdopted())).toBe('1');

    // Made by an older gateway after the walk (a rolling upgrade): left to its next sign-in.
    const late = await old.accountStore.createAccount({ email: 'late@before.example' });
    const second = await openStores({ redisUrl: server.url, storePath: ':memory:', redisTimeoutMs: 1_000, clock: clock.now, logger });
    closeAfterEach(second.redis!, disconnectRedis);
    await second.adopted;
    expect(await second.stores.teamStore.listMembers(late.id)).toEqual([]);
    expect(await owners(second.stores, ids)).toEqual(ids.map((id) => [[adoptedPersonId(id), 'owner']]));
  });
});
