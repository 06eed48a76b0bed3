import type { Logger } from '@tollgate/envelope';
import { formatAmount } from '../domain/format-amount';
import type { AccountStore } from '../data/account-store';
import type { BillingStore } from '../data/billing-store';
import { billingRecipients } from '../data/team-recipients';
import type { TeamStore } from '../data/team-store';
import type { Mail, Mailer } from '../mail/mailer';
import type { BillingProvider, ProviderPayment } from './billing-provider';

/** Payments this recent are copied; older ones were paid before the copy existed or were copied already. */
const RECENT_MS = 86_400_000;

/** What copying receipts needs. */
export interface ReceiptCopyDeps {
  provider: Pick<BillingProvider, 'listPayments'>;
  billingStore: Pick<BillingStore, 'claimEvent' | 'settleEvent'>;
  accountStore: AccountStore;
  teamStore: TeamStore;
  mailer: Mailer;
  clock: () => number;
  logger: Logger;
}

/** The copy of a payment's receipt a billing member gets. */
export function receiptCopyMail(to: string, team: string, payment: ProviderPayment): Mail {
  return {
    to,
    subject: `Receipt: ${formatAmount(payment.amount, payment.currency)} paid for ${team} on Tollgate`,
    text: [
      `${team} paid ${formatAmount(payment.amount, payment.currency)} on ${payment.created_at.slice(0, 10)}${payment.card ? ` with ${payment.card}` : ''}.`,
      '',
      ...(payment.receipt_url ? ['The receipt:', payment.receipt_url, ''] : []),
      'You get this copy as an owner or billing member of the team; the card provider mails its own receipt to the team’s billing address.',
    ].join('\n'),
  };
}

/**
 * After a paid invoice: a copy of each new payment's receipt to the team's owners and billing
 * members, but the team's contact address, to which Stripe mails its own receipt (it keeps one
 * address per customer). Each payment is copied once (claimed in the store by `receipt:<id>`, as a
 * webhook event is), whichever event or gateway comes first.
 */
export function createReceiptCopies(deps: ReceiptCopyDeps): (customerId: string, accountId: string) => Promise<void> {
  return async (customerId, accountId) => {
    const account = await deps.accountStore.getAccount(accountId);
    if (!account) return;
    const to = (await billingRecipients(deps.teamStore, account)).filter((address) => address !== account.email);
    if (to.length === 0) return;
    const nowMs = deps.clock();
    for (const payment of await deps.provider.listPayments(customerId, 5)) {
      if (Date.parse(payment.created_at) < nowMs - RECENT_MS) continue;
      const id = `receipt:${payment.id}`;
      if ((await deps.billingStore.claimEvent(id, nowMs)) !== 'claimed') continue;
      for (const address of to) {
        await deps.mailer.send(receiptCopyMail(address, account.name || account.email || account.id, payment)).catch((err: unknown) => deps.logger.error({ err: (err as Error).message, account_id: accountId }, 'receipt copy not sent'));
      }
      await deps.billingStore.settleEvent(id, true, nowMs);
    }
  };
}
