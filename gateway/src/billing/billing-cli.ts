import type { Billing } from './create-billing';

/** The CLI's billing commands (registered in admin/cli-commands.ts, wired by cli.ts). */
export interface BillingCommands {
  sync(): Promise<unknown>;
  reconcile(): Promise<unknown>;
  account(accountId: string): Promise<unknown>;
  summary(): Promise<unknown>;
}

/**
 * `billing sync` prints what it made and, once, the webhook endpoint's signing secret;
 * `billing reconcile` prints what it checked and repaired; `billing account` and `summary` print
 * what the admin routes answer.
 */
export function createBillingCommands(billing: Billing): BillingCommands {
  return {
    async sync() {
      const done = await billing.syncCatalogue();
      return { ...done, missing: await billing.missingPrices() };
    },
    reconcile: () => billing.reconcile(),
    async account(accountId) {
      const view = await billing.accountBilling(accountId);
      if (!view) throw new Error(`no account with id ${accountId}`);
      return view;
    },
    summary: () => billing.billingSummary(),
  };
}
