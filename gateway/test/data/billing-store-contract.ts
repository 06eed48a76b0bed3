import type { ApiPlans } from '../../src/domain/plans';
import type { BillingRecord } from '../../src/data/billing-store';
import { EVENT_KEPT_MS, EVENT_LEASE_MS } from '../../src/data/billing-store';
import type { Stores } from '../../src/data/stores';
import { parseApiKey } from '../../src/domain/api-key';

/** What the billing part of the store contract works with: the stores of the test and its clock. */
export interface BillingContractContext {
  stores: () => Stores;
  now: () => number;
  advance: (ms: number) => void;
}

const plans: ApiPlans = {
  playground_per_day: 3,
  plans: { free: { monthly_quota: 4, rate_per_second: 100, price: 0, currency: 'EUR' }, pro: { monthly_quota: 1000, rate_per_second: 100, price: 2500, currency: 'EUR' } },
};
const NO_ACCOUNT = 'acc_000000000000000000000000';

/** A record as billing writes it. */
export function billingRecord(fields: Partial<BillingRecord> = {}): BillingRecord {
  return {
    subscription_id: 'sub_1',
    customer_id: 'cus_1',
    plan: 'pro',
    price_id: 'price_pro',
    amount: 2500,
    currency: 'EUR',
    status: 'active',
    state: 'active',
    current_period_end: '2026-05-01T00:00:00.000Z',
    cancel_at_period_end: false,
    next_plan: null,
    grace_until: null,
    test_clock: null,
    updated_at: '2026-04-15T00:00:00.000Z',
    ...fields,
  };
}

/** The billing store's part of the contract (run by describeStoreContract on every engine). */
export function describeBillingContract(ctx: BillingContractContext): void {
  describe('billing', () => {
    const account = async () => {
      const created = await ctx.stores().accountStore.createAccount({ email: null, name: 'Billed' });
      const key = (await ctx.stores().accountStore.createKey(created.id, { name: 'k' }))!;
      const parsed = parseApiKey(key.key);
      if (!parsed.ok) throw new Error('a generated key did not parse');
      return { id: created.id, admit: () => ctx.stores().quotaStore.admit({ accountId: parsed.accountId, keyHash: parsed.hash, api: 'token', apiPlans: plans, nowMs: ctx.now() }) };
    };

    it('when a customer is remembered per currency, then the first one kept wins, it is found from its id, and an unknown account keeps none', async () => {
      const { billingStore } = ctx.stores();
      const a = await account();
      expect(await billingStore.getBilling(a.id)).toEqual({ customers: {}, subscriptions: {} });
      expect(await billingStore.rememberCustomer(a.id, 'EUR', 'cus_eur')).toBe('cus_eur');
      expect(await billingStore.rememberCustomer(a.id, 'EUR', 'cus_other')).toBe('cus_eur');
      expect(await billingStore.rememberCustomer(a.id, 'USD', 'cus_usd')).toBe('cus_usd');
      expect(await billingStore.getBilling(a.id)).toEqual({ customers: { EUR: 'cus_eur', USD: 'cus_usd' }, subscriptions: {} });
      expect(await billingStore.accountOfCustomer('cus_eur')).toBe(a.id);
      expect(await billingStore.accountOfCustomer('cus_usd')).toBe(a.id);
      expect(await billingStore.accountOfCustomer('cus_other')).toBeUndefined();
      expect(await billingStore.rememberCustomer(NO_ACCOUNT, 'EUR', 'cus_nobody')).toBeUndefined();
      expect(await billingStore.getBilling(NO_ACCOUNT)).toBeUndefined();
      expect(await billingStore.accountOfCustomer('cus_nobody')).toBeUndefined();
    });

    it('when checkouts of one API are started at once, then each replaces exactly one other (one replaces none), per API, and the billing read shows none of them', async () => {
      const { billingStore } = ctx.stores();
      const a = await account();
      const replaced = await Promise.all(['cs_1', 'cs_2', 'cs_3', 'cs_4'].map((id) => billingStore.swapCheckout(a.id, 'token', id)));
      expect(replaced.filter((r) => r === null)).toHaveLength(1);
      expect(new Set(replaced.filter((r) => r !== null)).size).toBe(3);
      const last = ['cs_1', 'cs_2', 'cs_3', 'cs_4'].find((id) => !replaced.includes(id));
      expect(await billingStore.swapCheckout(a.id, 'token', 'cs_5')).toBe(last);
      expect(await billingStore.swapCheckout(a.id, 'burger', 'cs_6')).toBeNull();
      expect(await billingStore.getBilling(a.id)).toEqual({ customers: {}, subscriptions: {} });
      expect(await billingStore.swapCheckout(NO_ACCOUNT, 'token', 'cs_7')).toBeUndefined();
    });

    it('when a record is applied with a subscription, then both change in one step, the record before is returned, and admission reads the subscription', async () => {
      const { billingStore, accountStore } = ctx.stores();
      const a = await account();
      expect(await billingStore.applyBilling(a.id, 'token', { record: billingRecord(), subscription: { plan: 'pro', status: 'active' } })).toEqual({ previous: null });
      expect((await accountStore.getAccount(a.id))?.subscriptions.token).toEqual({ plan: 'pro', status: 'active' });
      expect(await a.admit()).toMatchObject({ outcome: 'admitted', plan: 'pro' });

      const pastDue = billingRecord({ status: 'past_due', state: 'grace', grace_until: '2026-05-08T00:00:00.000Z' });
      expect(await billingStore.applyBilling(a.id, 'token', { record: pastDue })).toEqual({ previous: billingRecord() });
      expect((await accountStore.getAccount(a.id))?.subscriptions.token).toEqual({ plan: 'pro', status: 'active' });
      expect(await billingStore.getBilling(a.id)).toEqual({ customers: {}, subscriptions: { token: pastDue } });

      expect(await billingStore.applyBilling(a.id, 'token', { record: null, subscription: null })).toEqual({ previous: pastDue });
      expect((await accountStore.getAccount(a.id))?.subscriptions).toEqual({});
      expect(await billingStore.getBilling(a.id)).toEqual({ customers: {}, subscriptions: {} });
      expect(await billingStore.applyBilling(NO_ACCOUNT, 'token', { record: billingRecord(), subscription: { plan: 'pro', status: 'active' } })).toBeUndefined();
    });

    it('when billing lapses a subscription, then the account shows why, and calls are refused uncharged without the playground until it is active again', async () => {
      const { billingStore, accountStore, quotaStore } = ctx.stores();
      const a = await account();
      await billingStore.applyBilling(a.id, 'token', { record: billingRecord({ status: 'unpaid', state: 'lapsed' }), subscription: { plan: 'pro', status: 'inactive', lapsed: 'unpaid' } });
      expect((await accountStore.getAccount(a.id))?.subscriptions.token).toEqual({ plan: 'pro', status: 'inactive', lapsed: 'unpaid' });
      const refused = await a.admit();
      expect(refused).toMatchObject({ outcome: 'no_subscription', used: 0, subscription: { plan: 'pro', status: 'inactive', lapsed: 'unpaid' } });
      expect(refused.ticket).toBeUndefined();
      expect(await quotaStore.usage(a.id, 'token', ctx.now())).toEqual({ month: 0, day: 0 });
      await billingStore.applyBilling(a.id, 'token', { record: billingRecord(), subscription: { plan: 'pro', status: 'active' } });
      expect(await a.admit()).toMatchObject({ outcome: 'admitted' });
      // An operator's plain inactive subscription still gets the playground.
      await accountStore.setSubscription(a.id, 'token', { plan: 'pro', status: 'inactive' });
      expect(await a.admit()).toMatchObject({ outcome: 'playground', subscription: { plan: 'pro', status: 'inactive' } });
    });

    it('when accounts have billing, then they are listed a page at a time, each once', async () => {
      const { billingStore } = ctx.stores();
      const ids = [];
      for (let i = 0; i < 5; i++) {
        const a = await account();
        ids.push(a.id);
        if (i % 2) await billingStore.rememberCustomer(a.id, 'EUR', `cus_${i}`);
        else await billingStore.applyBilling(a.id, 'token', { record: billingRecord({ subscription_id: `sub_${i}` }) });
      }
      await account();
      const seen: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await billingStore.listBilledAccounts({ cursor, limit: 2 });
        expect(page.items.length).toBeLessThanOrEqual(2);
        seen.push(...page.items);
        cursor = page.next_cursor ?? undefined;
      } while (cursor);
      expect(seen.sort()).toEqual([...ids].sort());
    });

    it('when an event is claimed, then it is busy to others until settled: handled it is done for 30 days, not handled it can be claimed again, and a lease left lapses', async () => {
      const { billingStore } = ctx.stores();
      const start = ctx.now();
      expect(await billingStore.claimEvent('evt_1', start)).toBe('claimed');
      expect(await billingStore.claimEvent('evt_1', start)).toBe('busy');
      await billingStore.settleEvent('evt_1', true, start);
      expect(await billingStore.claimEvent('evt_1', start)).toBe('done');

      expect(await billingStore.claimEvent('evt_2', start)).toBe('claimed');
      await billingStore.settleEvent('evt_2', false, start);
      expect(await billingStore.claimEvent('evt_2', start)).toBe('claimed');

      expect(await billingStore.claimEvent('evt_3', start)).toBe('claimed');
      ctx.advance(EVENT_LEASE_MS + 1);
      expect(await billingStore.claimEvent('evt_3', ctx.now())).toBe('claimed');
      ctx.advance(EVENT_KEPT_MS - EVENT_LEASE_MS - 2);
      expect(await billingStore.claimEvent('evt_1', ctx.now())).toBe('done');
    });
  });
}
