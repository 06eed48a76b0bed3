import type { BillingRecord, BillingStore } from '../data/billing-store';
import type { Applied, ProviderFlowDeps } from './apply-subscription';

/** One repair, as `tollgate billing reconcile` prints it. */
export interface Repair {
  account: string;
  api: string;
  subscription: string;
  from: { plan: string; status: string; state: string } | null;
  to: { plan: string; status: string; state: string };
}

/** What a reconciliation looked at and changed. */
export interface Reconciliation {
  checked: number;
  changed: Repair[];
  /** Subscriptions whose customer no account holds (made outside Tollgate, or the store lost it). */
  unknown_customers: { customer: string; subscription: string }[];
}

const brief = (r: BillingRecord) => ({ plan: r.plan, status: r.status, state: r.state });

/** Every record the store keeps, with its account and API. */
export async function* storedRecords(billingStore: BillingStore): AsyncIterable<{ accountId: string; api: string; record: BillingRecord }> {
  let cursor: string | undefined;
  do {
    const page = await billingStore.listBilledAccounts({ cursor, limit: 100 });
    for (const accountId of page.items) {
      const billing = await billingStore.getBilling(accountId);
      for (const [api, record] of Object.entries(billing?.subscriptions ?? {})) yield { accountId, api, record };
    }
    cursor = page.next_cursor ?? undefined;
  } while (cursor);
}

/** Reconciliation of the store with the provider, and the sweep that ends grace periods. */
export function createReconciler(deps: ProviderFlowDeps): { reconcile(): Promise<Reconciliation>; sweepGrace(): Promise<Repair[]> } {
  const { provider, billingStore, logger } = deps;
  const repairOf = (applied: Applied | undefined): Repair | undefined =>
    applied?.changed ? { account: applied.accountId, api: applied.api, subscription: applied.record.subscription_id, from: applied.previous ? brief(applied.previous) : null, to: brief(applied.record) } : undefined;

  return {
    /**
     * Every subscription the provider has that has not ended is applied to the store, then every
     * record the store keeps that was not among them (it ended, or is gone) is read and applied:
     * a webhook that never came is made up for. Only differences are written.
     */
    async reconcile() {
      const result: Reconciliation = { checked: 0, changed: [], unknown_customers: [] };
      const seen = new Set<string>();
      for await (const paid of provider.listSubscriptions()) {
        seen.add(paid.id);
        result.checked += 1;
        const accountId = await billingStore.accountOfCustomer(paid.customerId);
        if (!accountId) {
          result.unknown_customers.push({ customer: paid.customerId, subscription: paid.id });
          continue;
        }
        const repair = repairOf(await deps.apply(paid, accountId));
        if (repair) result.changed.push(repair);
      }
      for await (const { accountId, record } of storedRecords(billingStore)) {
        if (seen.has(record.subscription_id) || record.state === 'ended') continue;
        result.checked += 1;
        const paid = await provider.readSubscription(record.subscription_id);
        if (!paid) {
          logger.warn({ account_id: accountId, subscription: record.subscription_id }, 'a billed subscription is unknown to the provider; its record is kept as it is');
          continue;
        }
        const repair = repairOf(await deps.apply(paid, accountId));
        if (repair) result.changed.push(repair);
      }
      if (result.changed.length) logger.info({ changed: result.changed }, `billing reconciliation repaired ${result.changed.length} subscription(s)`);
      return result;
    },
    /**
     * Ends grace periods that are over. A record on the wall clock is judged from the store; one on
     * a provider's test clock is read again (its time is the clock's).
     */
    async sweepGrace() {
      const repairs: Repair[] = [];
      for await (const { accountId, record } of storedRecords(billingStore)) {
        if (record.state !== 'grace' || record.grace_until === null) continue;
        if (record.test_clock === null && Date.parse(record.grace_until) > deps.clock()) continue;
        const paid = await provider.readSubscription(record.subscription_id);
        const repair = paid ? repairOf(await deps.apply(paid, accountId)) : undefined;
        if (repair) repairs.push(repair);
      }
      return repairs;
    },
  };
}
