import { ownEntry } from '@tollgate/envelope/core';
import type { Logger } from '@tollgate/envelope';
import { summarizeBilling } from '../domain/billing-summary';
import type { BillingSummary } from '../domain/billing-summary';
import { planNamed } from '../domain/plans';
import type { PlanTable } from '../domain/plans';
import type { Account, AccountStore } from '../data/account-store';
import type { BillingRecord, BillingStore } from '../data/billing-store';
import { MissingAtProviderError } from './billing-provider';
import type { BillingProvider, ProviderInvoice, ProviderPayment } from './billing-provider';

/**
 * One paid subscription as the billing page and the operators see it; `withdrawn`: its API or plan
 * left the catalogue (it ends at its period's end: billing/withdrawals.ts).
 */
export type BilledSubscription = BillingRecord & { api: string; withdrawn: boolean };

/** A plan on an account that no card pays for: granted by an operator (comp). */
export interface CompPlan {
  api: string;
  plan: string;
  price: number;
  currency: string;
}

/** An account's billing as operators see it (and the console will show it). */
export interface AccountBillingView {
  account_id: string;
  customers: Record<string, string>;
  subscriptions: BilledSubscription[];
  comp: CompPlan[];
}

/** The person's billing page: paid subscriptions, invoices (when the provider answered), customer currencies. */
export interface BillingPage {
  card_payments: true;
  subscriptions: BilledSubscription[];
  invoices: (ProviderInvoice & { customer_currency: string })[] | null;
  /** Card payments received, each with its receipt (null when the provider did not answer). */
  payments: ProviderPayment[] | null;
  currencies: string[];
  /** The currencies whose customer the provider no longer has: their invoices and card cannot be shown. */
  missing_customers: string[];
}

/** How many invoices per customer the billing page lists. */
const INVOICES = 24;

/** What the views need. */
export interface BillingViewsDeps {
  plans: PlanTable;
  provider: BillingProvider;
  billingStore: BillingStore;
  accountStore: AccountStore;
  logger: Logger;
}

/** Whether the catalogue still has what a record pays for. */
export const withdrawnFrom = (plans: PlanTable, api: string, plan: string): boolean => !ownEntry(ownEntry(plans, api)?.plans ?? {}, plan);

const listed = (plans: PlanTable, subscriptions: Record<string, BillingRecord>, running: boolean): BilledSubscription[] =>
  Object.entries(subscriptions)
    .filter(([, r]) => !running || r.state !== 'ended')
    .map(([api, r]) => ({ api, ...r, withdrawn: withdrawnFrom(plans, api, r.plan) }));

/** Paid plans active on an account with no running paid subscription behind them. */
function compPlans(plans: PlanTable, account: Account, billed: Record<string, BillingRecord>): CompPlan[] {
  return Object.entries(account.subscriptions).flatMap(([api, sub]) => {
    const limits = planNamed(plans, api, sub.plan);
    const record = billed[api];
    if (!limits || limits.price === 0 || sub.status !== 'active' || (record && record.state !== 'ended')) return [];
    return [{ api, plan: sub.plan, price: limits.price, currency: limits.currency }];
  });
}

/** The billing page, the operators' view of an account, and the summary (MRR, subscriptions by status). */
export function createBillingViews(deps: BillingViewsDeps) {
  const { billingStore, provider } = deps;
  return {
    async page(account: Account): Promise<BillingPage> {
      const billing = (await billingStore.getBilling(account.id)) ?? { customers: {}, subscriptions: {} };
      let invoices: BillingPage['invoices'] = [];
      let payments: BillingPage['payments'] = [];
      const missing: string[] = [];
      try {
        for (const [currency, customerId] of Object.entries(billing.customers)) {
          try {
            const [listed, paid] = await Promise.all([provider.listInvoices(customerId, INVOICES), provider.listPayments(customerId, INVOICES)]);
            for (const invoice of listed) invoices.push({ ...invoice, customer_currency: currency });
            payments.push(...paid);
          } catch (err) {
            if (!(err instanceof MissingAtProviderError)) throw err;
            deps.logger.warn({ account_id: account.id, customer_id: customerId, currency }, 'the payment provider no longer has this customer: its invoices and card cannot be shown');
            missing.push(currency);
          }
        }
        invoices.sort((a, b) => b.created_at.localeCompare(a.created_at));
        payments.sort((a, b) => b.created_at.localeCompare(a.created_at));
      } catch (err) {
        // The page still shows the subscriptions (from the store); only the invoices wait for the provider.
        deps.logger.warn({ err: (err as Error).message, account_id: account.id }, 'invoices not listed: the provider did not answer');
        invoices = null;
        payments = null;
      }
      return { card_payments: true, subscriptions: listed(deps.plans, billing.subscriptions, true), invoices, payments, currencies: Object.keys(billing.customers).filter((c) => !missing.includes(c)), missing_customers: missing };
    },
    async account(accountId: string): Promise<AccountBillingView | undefined> {
      const [account, billing] = await Promise.all([deps.accountStore.getAccount(accountId), billingStore.getBilling(accountId)]);
      if (!account || !billing) return undefined;
      return { account_id: accountId, customers: billing.customers, subscriptions: listed(deps.plans, billing.subscriptions, false), comp: compPlans(deps.plans, account, billing.subscriptions) };
    },
    async summary(): Promise<BillingSummary> {
      const records: BillingRecord[] = [];
      let cursor: string | undefined;
      do {
        const page = await billingStore.listBilledAccounts({ cursor, limit: 100 });
        for (const accountId of page.items) records.push(...Object.values((await billingStore.getBilling(accountId))?.subscriptions ?? {}));
        cursor = page.next_cursor ?? undefined;
      } while (cursor);
      return summarizeBilling(records);
    },
  };
}
