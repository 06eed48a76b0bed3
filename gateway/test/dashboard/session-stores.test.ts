import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type Redis from 'ioredis';
import request from 'supertest';
import { createLogger } from '@tollgate/envelope';
import { createApp } from '../../src/app';
import { loadConfig } from '../../src/config';
import { createMemoryStores } from '../../src/data/memory/memory-stores';
import { createRedisClient } from '../../src/data/redis/redis-client';
import { createRedisStores } from '../../src/data/redis/redis-stores';
import { redisKeys } from '../../src/data/redis/redis-keys';
import { createServiceDocuments } from '../../src/data/service-documents';
import { KEEP_AFTER_END_SECONDS, codeHash, sha256 } from '../../src/data/session-store';
import type { SessionStore } from '../../src/data/session-store';
import { openSqliteStores } from '../../src/data/sqlite/sqlite-stores';
import { createUsageRecorder } from '../../src/data/usage-recorder';
import type { Mail, Mailer } from '../../src/mail/mailer';
import { createBackgroundLoops } from '../../src/data/background-loop';
import { createMetrics } from '../../src/http/metrics';
import { manualClock } from '../data/store-contract';
import type { ManualClock } from '../data/store-contract';
import { startRedisServer } from '../support/redis-server';
import type { RedisServer } from '../support/redis-server';
import { catalogueOf } from '../support/catalogue-of';

jest.setTimeout(60_000);

const START = Date.parse('2026-03-10T12:30:00.000Z');
const iso = (ms: number): string => new Date(ms).toISOString();
const session = (accountId: string, endMs: number) => ({ account_id: accountId, csrf_token: 'csrf-token', created_at: iso(START), expires_at: iso(endMs) });

let redisServer: RedisServer;
let dir: string;
beforeAll(async () => {
  redisServer = await startRedisServer();
  dir = mkdtempSync(path.join(tmpdir(), 'tollgate-sessions-'));
});
afterAll(async () => {
  await redisServer.stop();
  rmSync(dir, { recursive: true, force: true });
});

type Opened = { store: SessionStore; close: () => Promise<void>; redis?: Redis };
const openers: Record<string, (clock: () => number) => Promise<Opened>> = {
  memory: async (clock) => ({ store: createMemoryStores({ clock }).sessionStore, close: async () => undefined }),
  redis: async (clock) => {
    const redis = createRedisClient(redisServer.url, { logger: createLogger({ service: 'test', level: 'silent' }) });
    await new Promise((resolve) => redis.once('ready', resolve));
    await redis.flushall();
    return { store: createRedisStores(redis, { clock }).sessionStore, redis, close: async () => void (await redis.quit()) };
  },
  sqlite: async (clock) => {
    const opened = openSqliteStores({ path: path.join(dir, `contract-${Math.random().toString(36).slice(2)}.db`), clock });
    return { store: opened.stores.sessionStore, close: async () => opened.close() };
  },
};

describe.each(Object.keys(openers))('the %s session store', (kind) => {
  let clock: ManualClock;
  let opened: Opened;
  let store: SessionStore;
  beforeEach(async () => {
    clock = manualClock(START);
    opened = await openers[kind]!(clock.now);
    store = opened.store;
  });
  afterEach(() => opened.close());

  it('when a session is stored, then it is read back by its hash until a day after its end, and gone once deleted', async () => {
    const end = START + 3_600_000;
    await store.putSession('h1', session('acc_1', end));
    await store.putSession('h2', session('acc_2', end));
    expect(await store.getSession('h1')).toEqual(session('acc_1', end));
    expect(await store.getSession('nope')).toBeUndefined();
    clock.set(end + KEEP_AFTER_END_SECONDS * 1000 - 1);
    // Lapsed but kept: the caller tells "expired" from "unknown".
    expect(await store.getSession('h1')).toEqual(session('acc_1', end));
    await store.deleteSession('h1');
    expect(await store.getSession('h1')).toBeUndefined();
    expect(await store.getSession('h2')).toEqual(session('acc_2', end));
    if (kind !== 'redis') {
      // Redis drops it by its own TTL (checked below); the others by the clock.
      clock.set(end + KEEP_AFTER_END_SECONDS * 1000);
      expect(await store.getSession('h2')).toBeUndefined();
    }
  });

  const SUBJECT = 'sign-in:ada@example.com';
  const LIMITS = { perSlot: 10, perSubject: 20 };
  const code = (digits: string, options: { tries?: number; token?: string; ttlMs?: number } = {}) => ({
    hash: codeHash(SUBJECT, digits),
    tokenHash: options.token === undefined ? '' : codeHash(SUBJECT, options.token),
    expiresAtMs: clock.now() + (options.ttlMs ?? 900_000),
    tries: options.tries ?? 5,
  });
  const put = (slot: string, digits: string, options: { tries?: number; token?: string; ttlMs?: number; maxLive?: number } = {}) =>
    store.putCode(SUBJECT, slot, code(digits, options), { maxLive: options.maxLive ?? 3, nowMs: clock.now() });
  const check = (slot: string, digits: string, subject = SUBJECT) => store.checkCode(subject, slot, codeHash(subject, digits), clock.now(), LIMITS);

  it('when a code is checked, then the right one matches once from its own slot, wrong ones cost a try each until the digits are void, and a lapsed one is expired', async () => {
    expect(await check('net-a', '123456')).toEqual({ outcome: 'none' });
    expect(await put('net-a', '123456')).toEqual({ stored: true });
    expect(await check('net-a', '000000')).toEqual({ outcome: 'wrong', triesLeft: 4 });
    // Another subject's code of the same digits is another hash; another slot holds no code.
    expect(await check('net-a', '123456', 'verify:acc_1')).toEqual({ outcome: 'none' });
    expect(await check('net-b', '123456')).toEqual({ outcome: 'none' });
    expect(await check('net-a', '123456')).toEqual({ outcome: 'ok' });
    expect(await check('net-a', '123456')).toEqual({ outcome: 'none' });

    await put('net-a', '222222', { tries: 2 });
    expect(await check('net-a', '000000')).toEqual({ outcome: 'wrong', triesLeft: 1 });
    expect(await check('net-a', '000000')).toEqual({ outcome: 'wrong', triesLeft: 0 });
    expect(await check('net-a', '222222')).toEqual({ outcome: 'none' });

    // A new code replaces its slot's code, tries and all, and no other slot's.
    await put('net-b', '555555');
    await put('net-a', '333333');
    await put('net-a', '444444');
    expect(await check('net-a', '333333')).toEqual({ outcome: 'wrong', triesLeft: 4 });
    expect(await check('net-b', '555555')).toEqual({ outcome: 'ok' });
    clock.advance(900_000);
    expect(await check('net-a', '444444')).toEqual({ outcome: 'expired' });
  });

  it('when a link token is used, then it opens the code of whichever slot it belongs to once, also after the digits were guessed void, and not after the code lapsed', async () => {
    await put('net-a', '123456', { token: 'token-a' });
    await put('net-b', '654321', { token: 'token-b' });
    for (let i = 0; i < 5; i++) await check('net-a', '000000');
    expect(await check('net-a', '123456')).toEqual({ outcome: 'none' });
    expect(await store.useLink(SUBJECT, codeHash(SUBJECT, 'token-a'), clock.now())).toEqual({ outcome: 'ok' });
    expect(await store.useLink(SUBJECT, codeHash(SUBJECT, 'token-a'), clock.now())).toEqual({ outcome: 'none' });
    expect(await store.useLink(SUBJECT, codeHash(SUBJECT, 'nope'), clock.now())).toEqual({ outcome: 'none' });
    expect(await store.useLink('sign-in:other@example.com', codeHash(SUBJECT, 'token-b'), clock.now())).toEqual({ outcome: 'none' });
    // Its digits still work from its own slot: the link of another slot did not use them.
    expect(await check('net-b', '654321')).toEqual({ outcome: 'ok' });
    await put('net-c', '111111', { token: 'token-c' });
    clock.advance(900_000);
    expect(await store.useLink(SUBJECT, codeHash(SUBJECT, 'token-c'), clock.now())).toEqual({ outcome: 'expired' });
  });

  it('when other slots hold the most live codes, then a new slot is refused until the first lapses, while a slot that has one may replace it', async () => {
    await put('net-a', '111111');
    clock.advance(60_000);
    await put('net-b', '222222');
    await put('net-c', '333333');
    expect(await put('net-d', '444444')).toEqual({ stored: false, freeAtMs: START + 900_000 });
    expect(await check('net-d', '444444')).toEqual({ outcome: 'none' });
    expect(await put('net-b', '555555')).toEqual({ stored: true });
    expect(await check('net-b', '555555')).toEqual({ outcome: 'ok' });
    // net-b's code is used: a place is free.
    expect(await put('net-d', '444444')).toEqual({ stored: true });
    expect(await put('net-e', '666666')).toEqual({ stored: false, freeAtMs: START + 900_000 });
    clock.set(START + 900_000);
    expect(await put('net-e', '666666')).toEqual({ stored: true });
    // Kept a day after its end, then dropped: a lapsed code still says expired until then.
    expect(await check('net-a', '111111')).toEqual({ outcome: 'expired' });
  });

  it('when codes are checked, then only checks against a live code count, per slot and per subject and UTC day, and past either limit nothing is compared', async () => {
    // Guesses with no code waiting count for nothing.
    for (let i = 0; i < 40; i++) expect(await check('net-x', '000000')).toEqual({ outcome: 'none' });
    const guessAll = async (slot: string, n: number) => {
      const outcomes: string[] = [];
      for (let i = 0; i < n; i++) {
        if (i % 5 === 0) await put(slot, '123456');
        outcomes.push((await check(slot, '000000')).outcome);
      }
      return outcomes;
    };
    expect(await guessAll('net-a', 11)).toEqual([...Array(10).fill('wrong'), 'limited']);
    expect(await check('net-a', '123456')).toEqual({ outcome: 'limited', scope: 'slot' });
    expect(await guessAll('net-b', 10)).toEqual(Array(10).fill('wrong'));
    // Twenty checks today from every slot together: a third slot is refused before its first check.
    await put('net-c', '777777');
    expect(await check('net-c', '777777')).toEqual({ outcome: 'limited', scope: 'subject' });
    // Another subject has its own limits.
    await store.putCode('verify:acc_1', 'account', { ...code('123456'), hash: codeHash('verify:acc_1', '123456') }, { maxLive: 3, nowMs: clock.now() });
    expect(await check('account', '123456', 'verify:acc_1')).toEqual({ outcome: 'ok' });
    clock.set(Date.parse('2026-03-11T00:00:00.000Z'));
    await put('net-c', '777777');
    expect(await check('net-c', '777777')).toEqual({ outcome: 'ok' });
  });

  it('when many wrong guesses race, then exactly the allowed tries are spent and the rest find the digits void', async () => {
    await put('net-a', '123456');
    const results = await Promise.all(Array.from({ length: 12 }, (_, i) => check('net-a', String(i).padStart(6, '9'))));
    const wrong = results.filter((r) => r.outcome === 'wrong').map((r) => (r as { triesLeft: number }).triesLeft);
    expect(wrong.sort()).toEqual([0, 1, 2, 3, 4]);
    expect(results.filter((r) => r.outcome === 'none')).toHaveLength(7);
  });

  it('when many slots race for the live places and their checks race for the daily limit, then exactly the limits hold', async () => {
    const stored = await Promise.all(Array.from({ length: 10 }, (_, i) => put(`net-${i}`, '123456')));
    expect(stored.filter((r) => r.stored)).toHaveLength(3);
    const live = stored.flatMap((r, i) => (r.stored ? [`net-${i}`] : []));
    // Each live slot's code gets 5 tries; 3 × 5 = 15 checks fit in the subject's 20.
    const checks = await Promise.all(live.flatMap((slot) => Array.from({ length: 8 }, () => check(slot, '000000'))));
    expect(checks.filter((r) => r.outcome === 'wrong')).toHaveLength(15);
    for (const slot of live) await put(slot, '123456');
    const more = await Promise.all(live.flatMap((slot) => Array.from({ length: 4 }, () => check(slot, '000000'))));
    expect(more.filter((r) => r.outcome === 'wrong')).toHaveLength(5);
    expect(more.filter((r) => r.outcome === 'limited')).toHaveLength(7);
  });

  it('when attempts are counted, then per subject and UTC hour, starting again the next hour; reading them counts none', async () => {
    const counts = [await store.readAttempts('email:ada@example.com', clock.now())];
    for (let i = 0; i < 3; i++) counts.push(await store.countAttempt('email:ada@example.com', clock.now()));
    counts.push(await store.readAttempts('email:ada@example.com', clock.now()), await store.readAttempts('email:ada@example.com', clock.now()));
    counts.push(await store.countAttempt('ip:10.0.0.1', clock.now()));
    clock.set(Date.parse('2026-03-10T13:00:00.000Z'));
    counts.push(await store.readAttempts('email:ada@example.com', clock.now()));
    counts.push(await store.countAttempt('email:ada@example.com', clock.now()));
    expect(counts).toEqual([0, 1, 2, 3, 3, 3, 1, 0, 1]);
  });

  if (kind === 'redis') {
    it('when a session made before the index existed is used, then touching it indexes it, so the account lists it from then on', async () => {
      const redis = opened.redis!;
      await redis.set(redisKeys.session(sha256('old')), JSON.stringify(session('acc_old', START + 3_600_000)), 'EX', 3_600 + KEEP_AFTER_END_SECONDS);
      expect(await store.listSessions('acc_old')).toEqual([]);
      await store.touchSession(sha256('old'), iso(START + 60_000));
      expect((await store.listSessions('acc_old')).map((s) => [s.tokenHash, s.session.last_seen_at])).toEqual([[sha256('old'), iso(START + 60_000)]]);
    });

    it('when records are written, then each is one hash-tagged key with a TTL, and no key names the cookie or the address in clear', async () => {
      const redis = opened.redis!;
      await store.putSession(sha256('cookie'), session('acc_1', START + 3_600_000));
      await put('2001:db8::/64', '123456');
      await check('2001:db8::/64', '000000');
      await store.countAttempt('email:ada@example.com', START);
      const keys = (await redis.keys('*')).sort();
      expect(keys).toHaveLength(6);
      // The account's index of sessions is named by the account id (no secret, in every key id), the rest by hashes.
      expect(keys).toContain('gw:{session-index:acc_1}');
      for (const key of keys) {
        expect(key).toMatch(/^gw:\{(?:[a-z-]+:[0-9a-f]{64}|session-index:acc_1)\}/);
        expect(key).not.toMatch(/ada|cookie|2001/);
        expect(await redis.ttl(key)).toBeGreaterThan(0);
      }
      // A subject's codes and its check counters share one hash tag: one Cluster slot, one script.
      const codeKeys = keys.filter((k) => k.startsWith('gw:{code:'));
      expect(codeKeys).toHaveLength(3);
      expect(new Set(codeKeys.map((k) => /^gw:\{[^}]+\}/.exec(k)![0])).size).toBe(1);
      // The session and its index: its end plus the day it is kept (Redis counts down in real time: a second may have passed).
      for (const name of keys.filter((k) => k.startsWith('gw:{session'))) {
        const ttl = await redis.ttl(name);
        expect(ttl).toBeGreaterThanOrEqual(3_600 + KEEP_AFTER_END_SECONDS - 1);
        expect(ttl).toBeLessThanOrEqual(3_600 + KEEP_AFTER_END_SECONDS);
      }
    });
  }
});

/** Keeps every mail in memory (the SMTP path is tested in sign-in.test.ts). */
function memoryMailer(): Mailer & { sent: Mail[] } {
  const sent: Mail[] = [];
  return { describe: 'memory', sent, send: async (mail) => void sent.push(mail), close: () => undefined };
}

describe('a portal session in the embedded store', () => {
  it('when the gateway restarts on the same file, then the session still opens the account; once signed out, it does not', async () => {
    const file = path.join(dir, 'restart.db');
    const clock = manualClock(START);
    const config = loadConfig({ STORE_PATH: file, LOG_LEVEL: 'silent' });
    const logger = createLogger({ service: 'test', level: 'silent' });
    const mailer = memoryMailer();
    const boot = () => {
      const opened = openSqliteStores({ path: file, clock: clock.now });
      const documents = createServiceDocuments({ catalogue: catalogueOf({}), clock: clock.now });
      const recorder = createUsageRecorder({ store: opened.stores.accountStore, clock: clock.now, intervalMs: 3_600_000 });
      const app = createApp({ config, stores: opened.stores, clock: clock.now, logger, metrics: createMetrics(), documents, recorder, mailer, loops: createBackgroundLoops({ clock: clock.now }) });
      return { app, stop: async () => { await recorder.stop(); opened.close(); } };
    };

    const first = boot();
    await request(first.app).post('/dashboard/v1/sign-in').send({ email: 'ada@example.com' }).expect(202);
    const code = /^ {4}(\d{6})$/m.exec(mailer.sent.at(-1)!.text)![1]!;
    const verified = await request(first.app).post('/dashboard/v1/sign-in/verify').send({ email: 'ada@example.com', code }).expect(200);
    const cookie = ([] as string[]).concat(verified.headers['set-cookie'] ?? [])[0]!.split(';')[0]!;
    await first.stop();

    const second = boot();
    try {
      const session = await request(second.app).get('/dashboard/v1/session').set('cookie', cookie);
      expect([session.status, session.body.data?.account.id, session.body.data?.csrf_token]).toEqual([200, verified.body.data.account.id, verified.body.data.csrf_token]);
      await request(second.app).delete('/dashboard/v1/session').set('cookie', cookie).set('x-csrf-token', verified.body.data.csrf_token).expect(200);
    } finally {
      await second.stop();
    }
    const third = boot();
    try {
      expect((await request(third.app).get('/dashboard/v1/session').set('cookie', cookie)).body.error.details).toEqual({ reason: 'no_session' });
    } finally {
      await third.stop();
    }
  });
});
