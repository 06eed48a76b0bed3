import type { AccountStore } from './account-store';
import type { AuditAction } from './audit-log';
import { changedFields, unchanged } from './audit-diff';
import { appendAudit } from './audited-account-store';
import type { AuditDeps, AuditSource } from './audited-account-store';
import type { BillingRecord, BillingStore } from './billing-store';

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/**
 * `store`, with every change billing makes to an account recorded in the audit log as `source`'s:
 * a customer remembered at the provider (`billing.customer`), a plan given, changed or taken by a
 * payment (`subscription.set` / `subscription.cancel`, with the paid subscription's state), and any
 * other change to a paid subscription's record (`billing.update`: renewal, cancellation set for the
 * period's end, a payment failed or recovered). A write that changes nothing adds no entry. Reads
 * pass through.
 */
export function auditedBillingStore(store: BillingStore, accounts: Pick<AccountStore, 'getAccount'>, deps: AuditDeps, source: AuditSource): BillingStore {
  const record = (accountId: string, action: AuditAction, target: string | null, details: Record<string, unknown>): Promise<void> =>
    appendAudit(deps, { account_id: accountId, actor: source.actor, from: source.from, action, target, details });
  return {
    ...store,
    async rememberCustomer(accountId, currency, customerId) {
      const kept = await store.rememberCustomer(accountId, currency, customerId);
      if (kept === customerId) await record(accountId, 'billing.customer', null, { currency, customer_id: customerId });
      return kept;
    },
    async applyBilling(accountId, api, change) {
      const before = change.subscription === undefined ? undefined : ((await accounts.getAccount(accountId))?.subscriptions[api] ?? null);
      const applied = await store.applyBilling(accountId, api, change);
      if (!applied) return applied;
      const { previous } = applied;
      const paid = change.record ?? previous;
      const facts = paid ? { subscription_id: paid.subscription_id, status: paid.status, state: paid.state } : {};
      if (change.subscription !== undefined && !same(before, change.subscription)) {
        await record(accountId, change.subscription ? 'subscription.set' : 'subscription.cancel', api, { before, after: change.subscription, ...facts });
        return applied;
      }
      const diff = changedFields<Partial<BillingRecord>>(previous ?? {}, change.record ?? {}, ['updated_at']);
      if (!unchanged(diff)) await record(accountId, 'billing.update', api, { ...facts, ...diff });
      return applied;
    },
  };
}
