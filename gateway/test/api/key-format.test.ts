import request from 'supertest';
import type { AdmitRequest } from '../../src/data/quota-store';
import { startEchoUpstream } from '../support/echo-upstream';
import type { EchoUpstream } from '../support/echo-upstream';
import { ADMIN_TOKEN, buildGateway } from '../support/gateway-fixture';
import type { GatewayFixture } from '../support/gateway-fixture';
import { startRedisServer } from '../support/redis-server';
import type { RedisServer } from '../support/redis-server';

let upstream: EchoUpstream;
let redisServer: RedisServer;
beforeAll(async () => {
  [upstream, redisServer] = await Promise.all([startEchoUpstream(), startRedisServer()]);
});
afterAll(async () => {
  await Promise.all([upstream.close(), redisServer.stop()]);
});

const CHECKSUM = 'invalid API key: its checksum does not match: it was mistyped';
const LENGTH = (n: number) => `invalid API key: it is ${n} characters long where Tollgate keys are 63: it was cut short or run on`;
const MALFORMED = 'invalid API key: it is not in the format of Tollgate keys (tg_…)';
/** `key` with the character at `at` replaced by the next one of the same kind (hex stays hex, base62 stays base62). */
function typo(key: string, at: number): string {
  const alphabet = at >= 10 && at < 34 ? '0123456789abcdef' : '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
  const next = alphabet[(alphabet.indexOf(key[at]!) + 1) % alphabet.length]!;
  return key.slice(0, at) + next + key.slice(at + 1);
}

describe.each([
  ['memory', false],
  ['redis', false],
  ['redis', true],
] as const)('key format with the %s store (fast path: %s)', (kind, fastPath) => {
  let gw: GatewayFixture;
  let admits: AdmitRequest[];
  let key: string;
  beforeEach(async () => {
    gw = await buildGateway({ upstream: upstream.url, redisUrl: kind === 'redis' ? redisServer.url : undefined, fastPath });
    // The gate holds this object: counting on it counts every call that reaches the store.
    const quotaStore = gw.stores.quotaStore;
    const admit = quotaStore.admit.bind(quotaStore);
    admits = [];
    quotaStore.admit = (req) => {
      admits.push(req);
      return admit(req);
    };
    const created = await request(gw.app).post('/admin/v1/keys').set({ Authorization: `Bearer ${ADMIN_TOKEN}` }).send({ owner: 'ada@example.com', subscriptions: { token: 'free' } });
    expect(created.status).toBe(201);
    key = created.body.data.key as string;
    upstream.seen.length = 0;
  });
  afterEach(() => gw.close());

  const call = (presented: string) => request(gw.app).get('/token/v1/prices').set('x-tollgate-key', presented);

  it.each<[string, (k: string) => string, string]>([
    ['one character of the random part changed', (k) => typo(k, 40), CHECKSUM],
    ['one hex digit of the account part changed', (k) => typo(k, 14), CHECKSUM],
    ['one character of the checksum changed', (k) => typo(k, 60), CHECKSUM],
    ['two neighbouring characters swapped', (k) => (k[30] === k[31] ? typo(k, 30) : `${k.slice(0, 30)}${k[31]}${k[30]}${k.slice(32)}`), CHECKSUM],
    ['the last character cut off', (k) => k.slice(0, -1), LENGTH(62)],
    ['the checksum cut off', (k) => k.slice(0, -6), LENGTH(57)],
    ['cut to the length of a key made before accounts', (k) => k.slice(0, 46), LENGTH(46)],
    ['a character appended', (k) => `${k}A`, LENGTH(64)],
    ['a character outside the alphabet', (k) => `${k.slice(0, 40)}-${k.slice(41)}`, MALFORMED],
    ['garbage', () => 'hello, world', MALFORMED],
    ['garbage with the prefix', () => 'tg_definitely-not-a-key', MALFORMED],
  ])('when the key has %s, then 401 with why, and neither the store nor the service is asked', async (_case, change, message) => {
    const presented = change(key);
    expect(presented).not.toBe(key);
    const res = await call(presented);
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ success: false, message, error: { code: 'UNAUTHORIZED' }, data: null });
    expect(admits).toHaveLength(0);
    expect(upstream.seen).toHaveLength(0);
  });

  it('when the key is right, then it is admitted with one store call naming its account', async () => {
    const res = await call(key);
    expect(res.status).toBe(200);
    expect(admits).toEqual([expect.objectContaining({ accountId: `acc_${key.slice(10, 34)}`, legacy: false, api: 'token' })]);
    expect(upstream.seen).toHaveLength(1);
  });
});
