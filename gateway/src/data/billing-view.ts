/**
 * What the operators' console reads of billing. Billing (paid plans through a payment provider)
 * fills it in when it lands; until then {@link NO_BILLING} says there is none, and the console
 * shows "no paid plans on this server". Plans an operator grants are comps, never billed.
 */

/** Revenue in one currency: what the paying subscriptions bring in a month, in the smallest unit. */
export interface MonthlyRevenue {
  currency: string;
  amount: number;
}

/** The server's billing, for the overview. */
export interface BillingSummary {
  /** Subscriptions being paid for (comps are not). */
  paying_subscriptions: number;
  /** Monthly recurring revenue per currency. */
  mrr: MonthlyRevenue[];
}

/** One account's billing, for its page: its state (e.g. `active`, `past_due`) and what the provider knows. */
export interface AccountBilling {
  state: string;
  /** Facts for the operator (customer id at the provider, payment method, next invoice…), shown as they are. */
  details: Record<string, string | number | boolean | null>;
}

/** Billing as the console reads it; `undefined` everywhere means no billing on this server. */
export interface BillingView {
  summary(): Promise<BillingSummary | undefined>;
  account(accountId: string): Promise<AccountBilling | undefined>;
}

/** No billing on this server: nothing is paid for, every paid plan held is a comp. */
export const NO_BILLING: BillingView = {
  summary: async () => undefined,
  account: async () => undefined,
};
