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
import { createServiceDocuments } from '../../src/data/service-documents';
import { KEEP_AFTER_END_SECONDS, codeHash, sha256 } from '../../src/data/session-store';
import type { SessionStore } from '../../src/data/session-store';
import { openSqliteStores } from '../../src/data/sqlite/sqlite-stores';
import { createUsageRecorder } from '../../src/data/usage-recorder';
import type { Mail, Mailer } from '../../src/mail/mailer';
import { createMetrics } from '../../src/http/metrics';
import { manualClock } from '../data/store-contract';
import type { ManualClock } from '../data/store-contract';
import { startRedisServer } from '../support/redis-server';
import type { RedisServer } from '../support/redis-server';

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

  it('when a code is checked, then the right one matches once, wrong ones cost a try each until it is void, and a lapsed one is expired', async () => {
    const subject = 'sign-in:ada@example.com';
    const put = (code: string, tries = 5) => store.putCode(subject, { hash: codeHash(subject, code), expiresAtMs: clock.now() + 900_000, tries });
    expect(await store.checkCode(subject, codeHash(subject, '123456'), clock.now())).toEqual({ outcome: 'none' });
    await put('123456');
    expect(await store.checkCode(subject, codeHash(subject, '000000'), clock.now())).toEqual({ outcome: 'wrong', triesLeft: 4 });
    // Another subject's code of the same digits is another hash.
    expect(await store.checkCode('verify:acc_1', codeHash('verify:acc_1', '123456'), clock.now())).toEqual({ outcome: 'none' });
    expect(await store.checkCode(subject, codeHash(subject, '123456'), clock.now())).toEqual({ outcome: 'ok' });
    expect(await store.checkCode(subject, codeHash(subject, '123456'), clock.now())).toEqual({ outcome: 'none' });

    await put('222222', 2);
    expect(await store.checkCode(subject, codeHash(subject, '000000'), clock.now())).toEqual({ outcome: 'wrong', triesLeft: 1 });
    expect(await store.checkCode(subject, codeHash(subject, '000000'), clock.now())).toEqual({ outcome: 'wrong', triesLeft: 0 });
    expect(await store.checkCode(subject, codeHash(subject, '222222'), clock.now())).toEqual({ outcome: 'none' });

    // A new code replaces the one before, tries and all.
    await put('333333');
    await put('444444');
    expect(await store.checkCode(subject, codeHash(subject, '333333'), clock.now())).toEqual({ outcome: 'wrong', triesLeft: 4 });
    clock.advance(900_000);
    expect(await store.checkCode(subject, codeHash(subject, '444444'), clock.now())).toEqual({ outcome: 'expired' });
  });

  it('when many wrong guesses race, then exactly the allowed tries are spent and the rest find the code void', async () => {
    const subject = 'sign-in:race@example.com';
    await store.putCode(subject, { hash: codeHash(subject, '123456'), expiresAtMs: clock.now() + 900_000, tries: 5 });
    const results = await Promise.all(Array.from({ length: 12 }, (_, i) => store.checkCode(subject, codeHash(subject, String(i).padStart(6, '9')), clock.now())));
    const wrong = results.filter((r) => r.outcome === 'wrong').map((r) => (r as { triesLeft: number }).triesLeft);
    expect(wrong.sort()).toEqual([0, 1, 2, 3, 4]);
    expect(results.filter((r) => r.outcome === 'none')).toHaveLength(7);
  });

  it('when attempts are counted, then per subject and UTC hour, starting again the next hour', async () => {
    const counts = [];
    for (let i = 0; i < 3; i++) counts.push(await store.countAttempt('email:ada@example.com', clock.now()));
    counts.push(await store.countAttempt('ip:10.0.0.1', clock.now()));
    clock.set(Date.parse('2026-03-10T13:00:00.000Z'));
    counts.push(await store.countAttempt('email:ada@example.com', clock.now()));
    expect(counts).toEqual([1, 2, 3, 1, 1]);
  });

  if (kind === 'redis') {
    it('when records are written, then each is one hash-tagged key with a TTL, and no key names the cookie or the address in clear', async () => {
      const redis = opened.redis!;
      await store.putSession(sha256('cookie'), session('acc_1', START + 3_600_000));
      await store.putCode('sign-in:ada@example.com', { hash: codeHash('sign-in:ada@example.com', '123456'), expiresAtMs: START + 900_000, tries: 5 });
      await store.countAttempt('email:ada@example.com', START);
      const keys = (await redis.keys('*')).sort();
      expect(keys).toHaveLength(3);
      for (const key of keys) {
        expect(key).toMatch(/^gw:\{[a-z-]+:[0-9a-f]{64}\}/);
        expect(key).not.toMatch(/ada|cookie/);
        expect(await redis.ttl(key)).toBeGreaterThan(0);
      }
      const ttl = await redis.ttl(keys.find((k) => k.includes('session'))!);
      // Its end plus the day it is kept (Redis counts down in real time: a second may have passed).
      expect(ttl).toBeGreaterThanOrEqual(3_600 + KEEP_AFTER_END_SECONDS - 1);
      expect(ttl).toBeLessThanOrEqual(3_600 + KEEP_AFTER_END_SECONDS);
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
      const documents = createServiceDocuments({ upstreams: {}, clock: clock.now });
      const recorder = createUsageRecorder({ store: opened.stores.accountStore, clock: clock.now, intervalMs: 3_600_000 });
      const app = createApp({ config, stores: opened.stores, clock: clock.now, logger, metrics: createMetrics(), documents, recorder, mailer });
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
