import type { HistoryCount } from '../../src/data/account-store';
import type { Stores } from '../../src/data/stores';
import { usageFields } from '../../src/data/usage-breakdown';
import type { UsageDetail } from '../../src/data/usage-breakdown';
import { LATENCY_BOUNDS_MS } from '../../src/domain/latency-histogram';
import type { ManualClock } from './store-contract';

const NO_ACCOUNT = 'acc_000000000000000000000000';
const none = (): number[] => LATENCY_BOUNDS_MS.map(() => 0);

/**
 * An account's calls in detail (per key, per endpoint, latency): written by the same `record` call
 * as the history, under its batch id, and read back per day. Run by describeStoreContract on every engine.
 */
export function describeUsageBreakdownContract(current: () => { stores: Stores; clock: ManualClock }): void {
  const store = () => current().stores.accountStore;

  describe('usage in detail', () => {
    it('when details are recorded with counts, then each day reads back per key, per endpoint and latency bucket, every day listed, and the history and server totals are as without them', async () => {
      const account = await store().createAccount({ name: 'detail' });
      const other = await store().createAccount({ name: 'other' });
      const at = (accountId: string, dayId: string, field: string, count: number): UsageDetail => ({ accountId, dayId, field, count });
      const counts: HistoryCount[] = [{ accountId: account.id, api: 'burger', dayId: '2026-03-30', outcome: '2xx', count: 3 }];
      const details = [
        at(account.id, '2026-03-30', usageFields.keyCalls('key_b'), 1),
        at(account.id, '2026-03-30', usageFields.keyCalls('key_a'), 2),
        at(account.id, '2026-03-30', usageFields.keyErrors('key_a'), 1),
        at(account.id, '2026-03-30', usageFields.endpointCalls('burger', '/v1/index/{currency}'), 3),
        at(account.id, '2026-03-30', usageFields.endpointErrors('burger', '/v1/index/{currency}'), 1),
        at(account.id, '2026-03-30', usageFields.latency(0), 2),
        at(account.id, '2026-03-30', usageFields.latency(23), 1),
        at(other.id, '2026-03-30', usageFields.keyCalls('key_o'), 9),
      ];
      await store().record(counts, new Map(), 'detail-1', details);
      await store().record(counts, new Map(), 'detail-1', details);
      await store().record([], new Map(), 'detail-2', [at(account.id, '2026-03-31', usageFields.endpointCalls('token', 'other'), 4), at(account.id, '2026-03-30', usageFields.keyCalls('key_b'), 1)]);
      const latency = none();
      latency[0] = 2;
      latency[23] = 1;
      expect(await store().usageBreakdown(account.id, '2026-03-29', '2026-03-31')).toEqual([
        { day: '2026-03-29', keys: [], endpoints: [], latency: none() },
        {
          day: '2026-03-30',
          keys: [
            { key_id: 'key_a', calls: 2, errors: 1 },
            { key_id: 'key_b', calls: 2, errors: 0 },
          ],
          endpoints: [{ api: 'burger', route: '/v1/index/{currency}', calls: 3, errors: 1 }],
          latency,
        },
        { day: '2026-03-31', keys: [], endpoints: [{ api: 'token', route: 'other', calls: 4, errors: 0 }], latency: none() },
      ]);
      expect((await store().usageBreakdown(other.id, '2026-03-30', '2026-03-30'))?.[0]?.keys).toEqual([{ key_id: 'key_o', calls: 9, errors: 0 }]);
      expect((await store().history(account.id, ['burger'], '2026-03-30', '2026-03-30'))?.[0]?.counts).toEqual({ '2xx': 3, '4xx': 0, '429': 0, '5xx': 0, refunded: 0 });
      expect((await store().serverHistory(['burger', 'token'], '2026-03-30', '2026-03-31')).map((d) => d.counts['2xx'])).toEqual([3, 0, 0, 0]);
      expect(await store().usageBreakdown(NO_ACCOUNT, '2026-03-30', '2026-03-30')).toBeUndefined();
    });

    it('when an account is erased, then its details go with its history', async () => {
      const account = await store().createAccount({ name: 'erased' });
      const today = new Date(current().clock.now()).toISOString().slice(0, 10);
      await store().record([], new Map(), 'erase-1', [{ accountId: account.id, dayId: today, field: usageFields.keyCalls('key_x'), count: 1 }]);
      await store().deleteAccount(account.id);
      const again = await store().createAccount({ name: 'erased' });
      expect(await store().usageBreakdown(account.id, today, today)).toBeUndefined();
      expect((await store().usageBreakdown(again.id, today, today))?.[0]?.keys).toEqual([]);
    });
  });
}
