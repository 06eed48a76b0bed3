import type { Billing } from './create-billing';

/** The CLI's billing commands (registered in admin/cli-commands.ts, wired by cli.ts). */
export interface BillingCommands {
  sync(): Promise<unknown>;
  reconcile(): Promise<unknown>;
}

/**
 * `billing sync` prints what it made and, once, the webhook endpoint's signing secret;
 * `billing reconcile` prints what it checked and repaired.
 */
export function createBillingCommands(billing: Billing): BillingCommands {
  return {
    async sync() {
      const done = await billing.syncCatalogue();
      return { ...done, missing: await billing.missingPrices() };
    },
    reconcile: () => billing.reconcile(),
  };
}
