import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import Redis from 'ioredis';
import { createMemoryStores } from '../../../src/data/memory/memory-stores';
import { createRedisStores } from '../../../src/data/redis/redis-stores';
import type { Admission, RefundTicket } from '../../../src/data/quota-store';
import type { Stores } from '../../../src/data/stores';
import { parseApiKey } from '../../../src/domain/api-key';
import type { ApiPlans } from '../../../src/domain/plans';
import { startRedisServer } from '../../support/redis-server';
import type { RedisServer } from '../../support/redis-server';
import { manualClock } from '../store-contract';

jest.setTimeout(120_000);

// Small limits, so random sequences reach every refusal: 3 calls a second, 25 a month, 3 playground calls a day.
const PLANS: ApiPlans = {
  playground_per_day: 3,
  plans: {
    small: { monthly_quota: 25, rate_per_second: 3, price: 0, currency: 'EUR' },
    big: { monthly_quota: 1_000, rate_per_second: 5, price: 0, currency: 'EUR' },
  },
};
const KEYS = 3;
// Steps of the clock before a call: mostly within a second (to reach the rate), some across one or
// past the two seconds kept, a few past a log's renewal bucket and its TTL, over a day, to the next month.
const stepArbitrary = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(0, 1, 120, 333) },
  { weight: 3, arbitrary: fc.constantFrom(999, 1_000, 1_001, 2_001) },
  { weight: 1, arbitrary: fc.constantFrom(10_000, 61_000, 86_400_000, 31 * 86_400_000) },
);

type Op =
  | { kind: 'call'; key: number; step: number }
  | { kind: 'refund'; nth: number }
  | { kind: 'plan'; plan: 'small' | 'big' | 'retired' | null; active: boolean }
  | { kind: 'roll'; key: number; graceMs: number }
  | { kind: 'endGrace'; key: number }
  | { kind: 'revoke'; key: number }
  | { kind: 'status'; suspended: boolean };

const opArbitrary: fc.Arbitrary<Op> = fc.oneof(
  { weight: 12, arbitrary: fc.record({ kind: fc.constant('call' as const), key: fc.nat(KEYS * 2 - 1), step: stepArbitrary }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('refund' as const), nth: fc.nat(30) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('plan' as const), plan: fc.constantFrom('small' as const, 'big' as const, 'retired' as const, null), active: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('roll' as const), key: fc.nat(KEYS - 1), graceMs: fc.constantFrom(0, 500, 5_000) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('endGrace' as const), key: fc.nat(KEYS - 1) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('revoke' as const), key: fc.nat(KEYS - 1) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('status' as const), suspended: fc.boolean() }) },
);

/** One engine under the same operations: its stores, its account, and its keys' current and previous secrets. */
interface Side {
  stores: Stores;
  accountId: string;
  keyIds: string[];
  /** Per key: the current secret, then the one before it (each engine makes its own). */
  secrets: string[][];
  tickets: RefundTicket[];
}

async function setUp(stores: Stores): Promise<Side> {
  const account = await stores.accountStore.createAccount({ email: null, name: 'Property', subscriptions: { token: { plan: 'small', status: 'active' } } });
  const side: Side = { stores, accountId: account.id, keyIds: [], secrets: [], tickets: [] };
  for (let i = 0; i < KEYS; i++) {
    const made = (await stores.accountStore.createKey(account.id, { name: `key ${i}` }))!;
    side.keyIds.push(made.record.id);
    side.secrets.push([made.key]);
  }
  return side;
}

/** What an admission says, without what differs by engine (ticket members, key ids). */
function comparable(side: Side, admission: Admission): unknown {
  const { ticket, keyId, ...decision } = admission;
  // As plain data: what an engine's objects inherit from is not part of the answer.
  return JSON.parse(JSON.stringify({ ...decision, key: keyId === undefined ? undefined : side.keyIds.indexOf(keyId), ticket: ticket && { charged: ticket.charged, monthId: ticket.monthId, dayId: ticket.dayId } }));
}

async function apply(side: Side, op: Op, nowMs: number): Promise<unknown> {
  const { accountStore, quotaStore } = side.stores;
  switch (op.kind) {
    case 'call': {
      // Keys 0..KEYS-1 present the current secret, the others the previous one (after a roll).
      const secret = side.secrets[op.key % KEYS]![op.key < KEYS ? 0 : 1];
      if (secret === undefined) return 'no previous secret';
      const parsed = parseApiKey(secret);
      if (!parsed.ok) throw new Error('a generated key did not parse');
      const admission = await quotaStore.admit({ accountId: parsed.accountId, keyHash: parsed.hash, api: 'token', apiPlans: PLANS, nowMs });
      if (admission.ticket) side.tickets.push(admission.ticket);
      return comparable(side, admission);
    }
    case 'refund': {
      const ticket = side.tickets[op.nth % Math.max(1, side.tickets.length)];
      if (ticket) await quotaStore.refund(ticket);
      return (await quotaStore.usage(side.accountId, 'token', nowMs));
    }
    case 'plan':
      await accountStore.setSubscription(side.accountId, 'token', op.plan === null ? null : { plan: op.plan, status: op.active ? 'active' : 'inactive' });
      return 'subscribed';
    case 'roll': {
      const rolled = await accountStore.rollKey(side.keyIds[op.key]!, op.graceMs).catch(() => undefined);
      if (rolled) side.secrets[op.key] = [rolled.key, side.secrets[op.key]![0]!];
      return rolled ? 'rolled' : 'not rolled';
    }
    case 'endGrace':
      return (await accountStore.endGrace(side.keyIds[op.key]!))?.rolled_at ?? null;
    case 'revoke':
      return (await accountStore.revokeKey(side.keyIds[op.key]!))?.revoked_at ?? null;
    case 'status':
      return (await accountStore.setStatus(side.accountId, op.suspended ? 'suspended' : 'active'))?.status;
  }
}

let server: RedisServer;
let redis: Redis;
beforeAll(async () => {
  server = await startRedisServer();
  redis = new Redis(server.url);
});
afterAll(async () => {
  redis.disconnect();
  await server.stop();
});

describe('the Redis admission script and decideAdmission (through the memory store, which applies it as it is)', () => {
  it('when random calls, refunds, plan changes, rolls, revocations and suspensions run against both, then every answer is the same', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(opArbitrary, { minLength: 1, maxLength: 60 }), async (ops) => {
        await redis.flushall();
        const clock = manualClock(Date.parse('2026-03-30T23:59:58.500Z'));
        const memory = await setUp(createMemoryStores({ clock: clock.now }));
        const onRedis = await setUp(createRedisStores(redis, { clock: clock.now, timeoutMs: 5_000 }));
        for (const [i, op] of ops.entries()) {
          if (op.kind === 'call') clock.advance(op.step);
          const [expected, actual] = [await apply(memory, op, clock.now()), await apply(onRedis, op, clock.now())];
          if (!isDeepStrictEqual(actual, expected)) throw new Error(`op ${i} ${JSON.stringify(op)}: Redis ${JSON.stringify(actual)}, decideAdmission ${JSON.stringify(expected)}`);
        }
      }),
      { numRuns: 100, seed: process.env.FC_SEED === undefined ? undefined : Number(process.env.FC_SEED) },
    );
  });
});
