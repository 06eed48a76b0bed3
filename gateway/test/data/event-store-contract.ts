import { DELIVERIES_LISTED, EndpointLimitError, PendingLimitError } from '../../src/data/event-store';
import type { Delivery, WebhookEndpoint } from '../../src/data/event-store';
import type { Stores } from '../../src/data/stores';

/** What the event part of the store contract works with: the stores of the test and its clock. */
export interface EventContractContext {
  stores: () => Stores;
  now: () => number;
  advance: (ms: number) => void;
}

const iso = (ms: number): string => new Date(ms).toISOString();

/** An endpoint as the events room makes it. */
export function endpointRecord(fields: Partial<WebhookEndpoint> & Pick<WebhookEndpoint, 'id' | 'account_id'>): WebhookEndpoint {
  return {
    url: 'https://hooks.example.com/tollgate',
    description: '',
    types: ['quota.threshold_reached'],
    enabled: true,
    disabled_reason: null,
    created_at: '2026-03-31T12:00:00.000Z',
    secret: 'whsec_c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0',
    previous_secret: null,
    previous_secret_until: null,
    failing_since: null,
    ...fields,
  };
}

/** A pending delivery due at `dueMs`. */
export function deliveryRecord(fields: Partial<Delivery> & Pick<Delivery, 'id' | 'account_id' | 'endpoint_id'>, dueMs: number): Delivery {
  return {
    message_id: `msg_${fields.id}`,
    type: 'quota.threshold_reached',
    payload: '{"type":"quota.threshold_reached","timestamp":"2026-03-31T12:00:00.000Z","data":{}}',
    created_at: iso(dueMs),
    state: 'pending',
    attempts: 0,
    next_attempt_at: iso(dueMs),
    last_attempt_at: null,
    last_status: null,
    last_error: null,
    last_latency_ms: null,
    ...fields,
  };
}

/** The event store's part of the contract (run by describeStoreContract on every engine). */
export function describeEventContract(ctx: EventContractContext): void {
  describe('events', () => {
    const account = async (): Promise<string> => (await ctx.stores().accountStore.createAccount({ email: null, name: 'Evented' })).id;

    it('when preferences are set, then they are read back, the thresholds index lists the account with a new version, and clearing its thresholds drops it', async () => {
      const { eventStore } = ctx.stores();
      const a = await account();
      expect(await eventStore.getPreferences(a)).toEqual({ mail: {}, thresholds: {} });
      const before = await eventStore.thresholdsVersion();
      await eventStore.setPreferences(a, { mail: { 'key.expiring': false }, thresholds: { token: [50, 90] } });
      expect(await eventStore.getPreferences(a)).toEqual({ mail: { 'key.expiring': false }, thresholds: { token: [50, 90] } });
      const custom = await eventStore.customThresholds();
      expect(custom.thresholds.get(a)).toEqual({ token: [50, 90] });
      expect(custom.version).not.toBe(before);
      expect(await eventStore.thresholdsVersion()).toBe(custom.version);
      await eventStore.setPreferences(a, { mail: {}, thresholds: {} });
      expect((await eventStore.customThresholds()).thresholds.has(a)).toBe(false);
      expect((await eventStore.listEventAccounts({ limit: 10 })).items).toContain(a);
    });

    it('when the same names are claimed twice, or at once, then each is claimed once until it lapses', async () => {
      const { eventStore } = ctx.stores();
      const a = await account();
      const now = ctx.now();
      const claims = [{ accountId: a, name: 'quota:token:2026-03:80', expiresAtMs: now + 60_000 }, { accountId: a, name: 'quota:token:2026-03:100', expiresAtMs: now + 60_000 }, { name: 'reset:2026-04', expiresAtMs: now + 60_000 }];
      expect(await eventStore.claim(claims, now)).toEqual([true, true, true]);
      expect(await eventStore.claim(claims, now)).toEqual([false, false, false]);
      const raced = await Promise.all([1, 2, 3, 4].map(() => eventStore.claim([{ accountId: a, name: 'expiring:k:7', expiresAtMs: now + 60_000 }], now)));
      expect(raced.flat().filter(Boolean)).toHaveLength(1);
      ctx.advance(60_001);
      expect(await eventStore.claim(claims.slice(0, 1), ctx.now())).toEqual([true]);
    });

    it('when endpoints are made, changed and deleted, then each account sees its own, the cap holds at once, and a deleted one cannot be replaced', async () => {
      const { eventStore } = ctx.stores();
      const [a, b] = [await account(), await account()];
      const made = await Promise.allSettled([1, 2, 3, 4].map((i) => eventStore.createEndpoint(endpointRecord({ id: `whe_${a}_${i}`, account_id: a, created_at: iso(ctx.now() + i) }), 3)));
      expect(made.filter((r) => r.status === 'fulfilled')).toHaveLength(3);
      expect(made.find((r) => r.status === 'rejected')).toMatchObject({ reason: expect.any(EndpointLimitError) });
      await eventStore.createEndpoint(endpointRecord({ id: 'whe_b', account_id: b }), 3);
      const own = await eventStore.listEndpoints(a);
      expect(own).toHaveLength(3);
      expect(own.map((e) => e.account_id)).toEqual([a, a, a]);
      expect(await eventStore.getEndpoint(a, 'whe_b')).toBeUndefined();
      const first = own[0]!;
      expect(await eventStore.putEndpoint({ ...first, enabled: false, disabled_reason: 'failing' })).toBe(true);
      expect(await eventStore.getEndpoint(a, first.id)).toMatchObject({ enabled: false, disabled_reason: 'failing' });
      expect(await eventStore.deleteEndpoint(b, first.id)).toBe(false);
      expect(await eventStore.deleteEndpoint(a, first.id)).toBe(true);
      expect(await eventStore.putEndpoint(first)).toBe(false);
      expect(await eventStore.getEndpoint(a, first.id)).toBeUndefined();
    });

    it('when an endpoint is replaced only if it is as expected, then a change made since is kept and the replacement refused', async () => {
      const { eventStore } = ctx.stores();
      const a = await account();
      const kept = endpointRecord({ id: `whe_${a}_cas`, account_id: a });
      await eventStore.createEndpoint(kept, 3);
      const read = (await eventStore.getEndpoint(a, kept.id))!;
      // Another writer rotates the secret after `read` was taken: a rewrite of `read` must not undo it.
      expect(await eventStore.putEndpoint({ ...read, secret: 'whsec_rotated', previous_secret: read.secret })).toBe(true);
      expect(await eventStore.putEndpoint({ ...read, description: 'rewritten' }, read)).toBe(false);
      expect(await eventStore.getEndpoint(a, kept.id)).toMatchObject({ secret: 'whsec_rotated', previous_secret: read.secret, description: '' });
      const now = (await eventStore.getEndpoint(a, kept.id))!;
      expect(await eventStore.putEndpoint({ ...now, description: 'rewritten' }, now)).toBe(true);
      expect(await eventStore.getEndpoint(a, kept.id)).toMatchObject({ secret: 'whsec_rotated', description: 'rewritten' });
      await eventStore.deleteEndpoint(a, kept.id);
      expect(await eventStore.putEndpoint(now, now)).toBe(false);
    });

    it('when deliveries are queued, then each due one is leased to one claimer, comes back when its lease lapses, and leaves the queue once settled', async () => {
      const { eventStore } = ctx.stores();
      const a = await account();
      const now = ctx.now();
      await eventStore.enqueue([deliveryRecord({ id: 'dlv_1', account_id: a, endpoint_id: 'whe_1' }, now), deliveryRecord({ id: 'dlv_2', account_id: a, endpoint_id: 'whe_1' }, now + 5_000)]);
      const [one, two] = await Promise.all([eventStore.claimDue(now, 10, 30_000), eventStore.claimDue(now, 10, 30_000)]);
      expect([...one!, ...two!].map((d) => d.id)).toEqual(['dlv_1']);
      ctx.advance(6_000);
      expect((await eventStore.claimDue(ctx.now(), 10, 30_000)).map((d) => d.id)).toEqual(['dlv_2']);
      ctx.advance(30_000);
      const again = await eventStore.claimDue(ctx.now(), 10, 30_000);
      expect(again.map((d) => d.id).sort()).toEqual(['dlv_1', 'dlv_2']);
      await eventStore.saveDelivery({ ...again.find((d) => d.id === 'dlv_1')!, state: 'delivered', attempts: 1, next_attempt_at: null, last_status: 204 });
      await eventStore.saveDelivery({ ...again.find((d) => d.id === 'dlv_2')!, attempts: 1, next_attempt_at: iso(ctx.now() + 5_000), last_status: 500 });
      ctx.advance(40_000);
      expect((await eventStore.claimDue(ctx.now(), 10, 30_000)).map((d) => d.id)).toEqual(['dlv_2']);
      expect(await eventStore.getDelivery(a, 'dlv_1')).toMatchObject({ state: 'delivered', last_status: 204 });
      expect(await eventStore.getDelivery('acc_000000000000000000000000', 'dlv_1')).toBeUndefined();
    });

    it('when deliveries are queued at once past the account’s cap of pending ones, then exactly the cap is queued, the rest refused whole, and settling one makes room for one', async () => {
      const { eventStore } = ctx.stores();
      const [a, b] = [await account(), await account()];
      const now = ctx.now();
      const batch = (i: number) => [0, 1].map((j) => deliveryRecord({ id: `dlv_${a}_${i}_${j}`, account_id: a, endpoint_id: `whe_${j}` }, now));
      const tried = await Promise.allSettled(Array.from({ length: 8 }, (_, i) => eventStore.enqueue(batch(i), 6)));
      expect(tried.filter((r) => r.status === 'fulfilled')).toHaveLength(3);
      expect(tried.filter((r) => r.status === 'rejected').map((r) => (r as PromiseRejectedResult).reason)).toEqual(Array(5).fill(expect.any(PendingLimitError)));
      const queued = (await eventStore.claimDue(now, 1_000, 30_000)).filter((d) => d.account_id === a);
      expect(queued).toHaveLength(6);
      await expect(eventStore.enqueue([deliveryRecord({ id: `dlv_${a}_x`, account_id: a, endpoint_id: 'whe_0' }, now)], 6)).rejects.toMatchObject({ max: 6 });
      await eventStore.enqueue([deliveryRecord({ id: `dlv_${b}_x`, account_id: b, endpoint_id: 'whe_b' }, now)], 6);
      await eventStore.saveDelivery({ ...queued[0]!, state: 'delivered', attempts: 1, next_attempt_at: null });
      await eventStore.enqueue([deliveryRecord({ id: `dlv_${a}_y`, account_id: a, endpoint_id: 'whe_0' }, now)], 6);
      await expect(eventStore.enqueue([deliveryRecord({ id: `dlv_${a}_z`, account_id: a, endpoint_id: 'whe_0' }, now)], 6)).rejects.toBeInstanceOf(PendingLimitError);
      // Without a cap (a delivery saved again after an attempt) nothing is refused.
      await eventStore.enqueue([deliveryRecord({ id: `dlv_${a}_free`, account_id: a, endpoint_id: 'whe_0' }, now)]);
    });

    it('when an account’s events are erased, then its settings, endpoints and every delivery are gone at once, other accounts keep theirs, and a delivery saved after its erasure is not kept', async () => {
      const stores = ctx.stores();
      const { eventStore } = stores;
      const [a, b] = [await account(), await account()];
      const now = ctx.now();
      await eventStore.setPreferences(a, { mail: { 'key.expiring': false }, thresholds: { token: [50] } });
      await eventStore.createEndpoint(endpointRecord({ id: `whe_${a}`, account_id: a }), 10);
      await eventStore.createEndpoint(endpointRecord({ id: `whe_${b}`, account_id: b }), 10);
      const mine = Array.from({ length: DELIVERIES_LISTED + 3 }, (_, i) => deliveryRecord({ id: `dlv_${a}_${i}`, account_id: a, endpoint_id: `whe_${a}`, state: 'delivered', next_attempt_at: null }, now + i));
      for (const d of mine) await eventStore.saveDelivery(d);
      await eventStore.enqueue([deliveryRecord({ id: `dlv_${a}_due`, account_id: a, endpoint_id: `whe_${a}` }, now), deliveryRecord({ id: `dlv_${b}_due`, account_id: b, endpoint_id: `whe_${b}` }, now)], 10);
      const leased = (await eventStore.claimDue(now, 1_000, 30_000)).find((d) => d.id === `dlv_${a}_due`)!;

      await eventStore.deleteAccountEvents(a);
      expect(await eventStore.getPreferences(a)).toEqual({ mail: {}, thresholds: {} });
      expect((await eventStore.customThresholds()).thresholds.has(a)).toBe(false);
      expect(await eventStore.listEndpoints(a)).toEqual([]);
      expect(await eventStore.listDeliveries(a, `whe_${a}`)).toEqual([]);
      for (const d of [...mine, leased]) expect(await eventStore.getDelivery(a, d.id)).toBeUndefined();
      expect((await eventStore.listEventAccounts({ limit: 1000 })).items).not.toContain(a);
      expect(await eventStore.listEndpoints(b)).toHaveLength(1);
      ctx.advance(31_000);
      expect((await eventStore.claimDue(ctx.now(), 1_000, 30_000)).filter((d) => d.account_id === a || d.account_id === b).map((d) => d.id)).toEqual([`dlv_${b}_due`]);

      // An attempt that was under way ends after the account is gone: what it writes is not kept.
      await stores.accountStore.deleteAccount(a);
      await eventStore.saveDelivery({ ...leased, state: 'pending', attempts: 1, next_attempt_at: new Date(ctx.now()).toISOString(), last_status: 500 });
      await eventStore.enqueue([deliveryRecord({ id: `dlv_${a}_late`, account_id: a, endpoint_id: `whe_${a}` }, ctx.now())], 10);
      expect(await eventStore.getDelivery(a, leased.id)).toBeUndefined();
      expect(await eventStore.getDelivery(a, `dlv_${a}_late`)).toBeUndefined();
      ctx.advance(31_000);
      expect((await eventStore.claimDue(ctx.now(), 1_000, 30_000)).map((d) => d.account_id)).not.toContain(a);
    });

    it(`when an endpoint has more than ${DELIVERIES_LISTED} deliveries, then the newest ${DELIVERIES_LISTED} are listed, newest first`, async () => {
      const { eventStore } = ctx.stores();
      const a = await account();
      const now = ctx.now();
      const all = Array.from({ length: DELIVERIES_LISTED + 5 }, (_, i) => deliveryRecord({ id: `dlv_${String(i).padStart(3, '0')}`, account_id: a, endpoint_id: 'whe_x', state: 'delivered', next_attempt_at: null }, now + i));
      for (const d of all) await eventStore.saveDelivery(d);
      const listed = await eventStore.listDeliveries(a, 'whe_x');
      expect(listed).toHaveLength(DELIVERIES_LISTED);
      expect(listed[0]!.id).toBe(`dlv_${String(DELIVERIES_LISTED + 4).padStart(3, '0')}`);
      expect(await eventStore.listDeliveries(a, 'whe_other')).toEqual([]);
    });
  });
}
