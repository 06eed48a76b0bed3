import type { ApiPlans } from '../../src/domain/plans';
import { hashApiKey } from '../../src/domain/api-key';
import type { Stores } from '../../src/data/quota-store';

/** A clock the tests move by hand. */
export interface ManualClock {
  now: () => number;
  set(ms: number): void;
  advance(ms: number): void;
}

/** A clock starting at `start` that only moves when told to. */
export function manualClock(start: number): ManualClock {
  let t = start;
  return { now: () => t, set: (ms) => void (t = ms), advance: (ms) => void (t += ms) };
}

const plans: ApiPlans = {
  playground_per_day: 3,
  plans: {
    tiny: { monthly_quota: 4, rate_per_second: 100, price: 0, currency: 'EUR' },
    slow: { monthly_quota: 1000, rate_per_second: 2, price: 500, currency: 'EUR' },
  },
};
const closed: ApiPlans = { ...plans, playground_per_day: 0 };
const START = Date.parse('2026-03-31T23:59:58.000Z');

/**
 * The behaviour every KeyStore/QuotaStore pair must show; run against memory and Redis.
 * `open` builds fresh, empty stores on the given clock and is closed after each test.
 */
export function describeStoreContract(name: string, open: (clock: () => number) => Promise<{ stores: Stores; close: () => Promise<void> }>): void {
  describe(`${name} stores`, () => {
    let clock: ManualClock;
    let stores: Stores;
    let close: () => Promise<void>;

    beforeEach(async () => {
      clock = manualClock(START);
      ({ stores, close } = await open(clock.now));
    });
    afterEach(() => close());

    async function keyWith(subscriptions: Record<string, { plan: string; status: 'active' | 'inactive' }> = {}) {
      const created = await stores.keyStore.create({ owner: 'ada@example.com', subscriptions });
      return { ...created, hash: hashApiKey(created.key) };
    }
    const admit = (k: { record: { id: string }; hash: string }, apiPlans: ApiPlans = plans, api = 'token') =>
      stores.quotaStore.admit({ keyId: k.record.id, keyHash: k.hash, api, apiPlans, nowMs: clock.now() });

    it('when a key is created, then it is found by id, by secret and in the list, and the secret is not stored', async () => {
      const k = await keyWith({ token: { plan: 'tiny', status: 'active' } });
      const expected = { id: k.record.id, owner: 'ada@example.com', created_at: new Date(START).toISOString(), revoked_at: null, subscriptions: { token: { plan: 'tiny', status: 'active' } } };
      expect(await stores.keyStore.get(k.record.id)).toEqual(expected);
      expect(await stores.keyStore.findByKey(k.key)).toEqual(expected);
      expect(await stores.keyStore.findByKey(`${k.key}x`)).toBeUndefined();
      expect(await stores.keyStore.list()).toEqual([expected]);
      expect(JSON.stringify(await stores.keyStore.get(k.record.id))).not.toContain(k.key);
    });

    it('when a subscription is set or a key revoked, then the record shows it; unknown ids give undefined', async () => {
      const k = await keyWith();
      expect(await stores.keyStore.setSubscription(k.record.id, 'logs', { plan: 'slow', status: 'inactive' })).toMatchObject({ subscriptions: { logs: { plan: 'slow', status: 'inactive' } } });
      const first = await stores.keyStore.revoke(k.record.id);
      clock.advance(5_000);
      const again = await stores.keyStore.revoke(k.record.id);
      expect(first?.revoked_at).toBe(new Date(START).toISOString());
      expect(again?.revoked_at).toBe(first?.revoked_at);
      expect(await stores.keyStore.setSubscription('key_000000000000000000000000', 'logs', { plan: 'slow', status: 'active' })).toBeUndefined();
      expect(await stores.keyStore.revoke('key_000000000000000000000000')).toBeUndefined();
      expect(await stores.keyStore.get('key_000000000000000000000000')).toBeUndefined();
    });

    it('when the key is unknown, the hash differs or the key is revoked, then nothing is admitted or charged', async () => {
      const k = await keyWith({ token: { plan: 'tiny', status: 'active' } });
      expect((await admit({ record: { id: 'key_000000000000000000000000' }, hash: k.hash })).outcome).toBe('unknown_key');
      expect((await admit({ record: k.record, hash: hashApiKey('other') })).outcome).toBe('unknown_key');
      await stores.keyStore.revoke(k.record.id);
      const revoked = await admit(k);
      expect(revoked.outcome).toBe('revoked');
      expect(revoked.ticket).toBeUndefined();
      expect(await stores.quotaStore.usage(k.record.id, 'token', clock.now())).toEqual({ month: 0, day: 0 });
    });

    it('when the monthly quota is used up, then calls are refused uncharged until the next UTC month', async () => {
      const k = await keyWith({ token: { plan: 'tiny', status: 'active' } });
      const outcomes = [];
      for (let i = 0; i < 6; i++) outcomes.push((await admit(k)).outcome);
      expect(outcomes).toEqual(['admitted', 'admitted', 'admitted', 'admitted', 'quota_exceeded', 'quota_exceeded']);
      expect(await stores.quotaStore.usage(k.record.id, 'token', clock.now())).toEqual({ month: 4, day: 0 });
      clock.advance(2_000); // 2026-04-01T00:00:00Z
      const april = await admit(k);
      expect(april).toMatchObject({ outcome: 'admitted', plan: 'tiny', used: 1 });
      expect(await stores.quotaStore.usage(k.record.id, 'token', clock.now())).toEqual({ month: 1, day: 0 });
    });

    it('when the rate is reached, then the rolling second refuses uncharged and frees a slot as calls leave it', async () => {
      const k = await keyWith({ token: { plan: 'slow', status: 'active' } });
      expect(await admit(k)).toMatchObject({ outcome: 'admitted', secondCount: 1, secondResetMs: 1000, used: 1 });
      clock.advance(600);
      expect(await admit(k)).toMatchObject({ outcome: 'admitted', secondCount: 2, secondResetMs: 400, used: 2 });
      clock.advance(399);
      const limited = await admit(k);
      expect(limited).toMatchObject({ outcome: 'rate_limited', plan: 'slow', secondCount: 2, secondResetMs: 1, used: 2 });
      expect(limited.ticket).toBeUndefined();
      clock.advance(1); // the first call is now exactly one second old
      expect(await admit(k)).toMatchObject({ outcome: 'admitted', secondCount: 2, secondResetMs: 600, used: 3 });
      expect((await admit(k)).outcome).toBe('rate_limited');
      expect((await stores.quotaStore.usage(k.record.id, 'token', clock.now())).month).toBe(3);
    });

    it('when an admitted call is refunded, then its month charge and its rate slot are given back', async () => {
      const k = await keyWith({ token: { plan: 'slow', status: 'active' } });
      await admit(k);
      const second = await admit(k);
      expect((await admit(k)).outcome).toBe('rate_limited');
      await stores.quotaStore.refund(second.ticket!);
      expect((await stores.quotaStore.usage(k.record.id, 'token', clock.now())).month).toBe(1);
      expect(await admit(k)).toMatchObject({ outcome: 'admitted', used: 2 });
    });

    it('when a call is refunded twice, or cancelled without knowing its charge, then it is given back exactly once', async () => {
      const k = await keyWith({ token: { plan: 'tiny', status: 'active' } });
      const first = await admit(k);
      const second = await admit(k);
      await stores.quotaStore.refund(first.ticket!);
      await stores.quotaStore.refund(first.ticket!);
      expect((await stores.quotaStore.usage(k.record.id, 'token', clock.now())).month).toBe(1);
      const { charged: _charged, ...unknownCharge } = second.ticket!;
      await stores.quotaStore.refund(unknownCharge);
      await stores.quotaStore.refund(second.ticket!);
      expect((await stores.quotaStore.usage(k.record.id, 'token', clock.now())).month).toBe(0);
      const play = await keyWith();
      const played = await admit(play);
      await stores.quotaStore.refund({ ...played.ticket!, charged: undefined });
      expect((await stores.quotaStore.usage(play.record.id, 'token', clock.now())).day).toBe(0);
    });

    it('when a call that was never admitted is cancelled, then nothing changes', async () => {
      const paid = await keyWith({ token: { plan: 'tiny', status: 'active' } });
      const admitted = await admit(paid);
      await stores.quotaStore.refund({ ...admitted.ticket!, member: `${admitted.ticket!.member}9`, charged: undefined });
      expect(await stores.quotaStore.usage(paid.record.id, 'token', clock.now())).toEqual({ month: 1, day: 0 });
      const play = await keyWith();
      const played = await admit(play);
      await stores.quotaStore.refund({ ...played.ticket!, member: `${played.ticket!.member}9`, charged: undefined });
      expect(await stores.quotaStore.usage(play.record.id, 'token', clock.now())).toEqual({ month: 0, day: 1 });
    });

    it('when a refund arrives after the month rolled over, then it is taken off the month that was charged', async () => {
      const k = await keyWith({ token: { plan: 'tiny', status: 'active' } });
      const march = await admit(k);
      clock.advance(2_000);
      await admit(k);
      await stores.quotaStore.refund(march.ticket!);
      expect(await stores.quotaStore.usage(k.record.id, 'token', clock.now())).toEqual({ month: 1, day: 0 });
      expect(await stores.quotaStore.usage(k.record.id, 'token', START)).toEqual({ month: 0, day: 0 });
    });

    it('when a key has no active subscription, then the playground allowance is used per UTC day, then refused', async () => {
      const k = await keyWith({ token: { plan: 'tiny', status: 'inactive' } });
      const outcomes = [];
      for (let i = 0; i < 4; i++) outcomes.push((await admit(k)).outcome);
      expect(outcomes).toEqual(['playground', 'playground', 'playground', 'playground_exhausted']);
      expect(await stores.quotaStore.usage(k.record.id, 'token', clock.now())).toEqual({ month: 0, day: 3 });
      clock.advance(2_000);
      expect(await admit(k)).toMatchObject({ outcome: 'playground', used: 1, subscription: { plan: 'tiny', status: 'inactive' } });
    });

    it('when a playground call is refunded, then the day counter goes back', async () => {
      const k = await keyWith();
      const call = await admit(k);
      expect(call.ticket).toMatchObject({ api: 'token', dayId: '2026-03-31' });
      await stores.quotaStore.refund(call.ticket!);
      expect((await stores.quotaStore.usage(k.record.id, 'token', clock.now())).day).toBe(0);
    });

    it('when the API has no playground or the plan no longer exists, then the call is refused uncharged', async () => {
      const none = await keyWith();
      expect(await admit(none, closed, 'burger')).toMatchObject({ outcome: 'no_subscription', used: 0 });
      const gone = await keyWith({ burger: { plan: 'retired', status: 'active' } });
      expect(await admit(gone, closed, 'burger')).toMatchObject({ outcome: 'unknown_plan', subscription: { plan: 'retired', status: 'active' } });
      expect(await stores.quotaStore.usage(gone.record.id, 'burger', clock.now())).toEqual({ month: 0, day: 0 });
    });

    it('when sign-ups are counted, then each address counts separately per UTC hour', async () => {
      expect(await stores.quotaStore.countSignup('10.0.0.1', clock.now())).toBe(1);
      expect(await stores.quotaStore.countSignup('10.0.0.1', clock.now())).toBe(2);
      expect(await stores.quotaStore.countSignup('::1', clock.now())).toBe(1);
      clock.advance(2_000);
      expect(await stores.quotaStore.countSignup('10.0.0.1', clock.now())).toBe(1);
    });

    it('when the store is up, then ping resolves', async () => {
      await expect(stores.quotaStore.ping()).resolves.toBeUndefined();
    });
  });
}
