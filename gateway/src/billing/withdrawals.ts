import type { Logger } from '@tollgate/envelope';
import { ownEntry } from '@tollgate/envelope/core';
import type { PlanTable } from '../domain/plans';
import type { AccountStore } from '../data/account-store';
import type { NewAuditEntry } from '../data/audit-log';
import type { BillingRecord, BillingStore } from '../data/billing-store';
import type { Mailer } from '../mail/mailer';
import type { Applied } from './apply-subscription';
import { withdrawnPlanMail } from './billing-mail';
import type { BillingProvider, PaidSubscription } from './billing-provider';
import { runningAtProvider } from './billing-record';
import { storedRecords } from './reconcile';

/** A paid subscription ended at its period's end because what it pays for left the catalogue. */
export interface Withdrawal {
  account: string;
  api: string;
  plan: string;
  subscription: string;
  ends_at: string | null;
}

/** What a withdrawal sweep did. */
export interface Withdrawals {
  ended: Withdrawal[];
  /** Subscriptions that could not be ended now: the next sweep (reconciliation's) tries again. */
  failed: number;
}

/** What the sweep needs. */
export interface WithdrawalDeps {
  plans: PlanTable;
  provider: Pick<BillingProvider, 'cancelAtPeriodEnd'>;
  billingStore: BillingStore;
  accountStore: AccountStore;
  apply: (paid: PaidSubscription, accountId: string) => Promise<Applied | undefined>;
  mailer: Mailer;
  clock: () => number;
  logger: Logger;
  publicUrl: string;
  audit?: (entry: NewAuditEntry) => Promise<void>;
}

/**
 * Whether a paid subscription pays for something the catalogue no longer has (its API, or its
 * plan of that API), and is still to renew: not ending already, and not moving at its period's
 * end to a plan that is there. A plan kept with `offered: false` is not withdrawn: its holders keep it.
 */
export function isWithdrawn(plans: PlanTable, api: string, record: BillingRecord): boolean {
  if (record.state === 'ended' || !runningAtProvider(record) || record.cancel_at_period_end) return false;
  const apiPlans = ownEntry(plans, api);
  if (!apiPlans) return true;
  if (record.next_plan !== null && ownEntry(apiPlans.plans, record.next_plan)) return false;
  return !ownEntry(apiPlans.plans, record.plan);
}

/** The claim that makes one process, once, end a subscription (several gateways reload the same catalogue). */
const claimOf = (subscriptionId: string): string => `tollgate:withdrawal:${subscriptionId}`;

/**
 * Ends at their period's end the paid subscriptions to APIs and plans the catalogue no longer
 * has, so nobody is charged again for what is gone: each at the provider, then in the store (as
 * every change, read back and applied), then told by mail and written in the audit log. Run after
 * a reload and with each reconciliation; a subscription is claimed first, so one process ends it and
 * one mail is sent.
 */
export function createWithdrawals(deps: WithdrawalDeps): () => Promise<Withdrawals> {
  const { billingStore, logger } = deps;
  const end = async (accountId: string, api: string, record: BillingRecord): Promise<Withdrawal | undefined> => {
    const claim = claimOf(record.subscription_id);
    if ((await billingStore.claimEvent(claim, deps.clock())) !== 'claimed') return undefined;
    try {
      const paid = await deps.provider.cancelAtPeriodEnd(record.subscription_id);
      await deps.apply(paid, accountId);
      await billingStore.settleEvent(claim, true, deps.clock());
    } catch (err) {
      await billingStore.settleEvent(claim, false, deps.clock()).catch(() => undefined);
      throw err;
    }
    const endsAt = record.current_period_end;
    const withdrawal: Withdrawal = { account: accountId, api, plan: record.plan, subscription: record.subscription_id, ends_at: endsAt };
    logger.info(withdrawal, `a paid ${api} ${record.plan} plan ends at its period’s end: the catalogue no longer has it`);
    const apiKept = ownEntry(deps.plans, api) !== undefined;
    const account = await deps.accountStore.getAccount(accountId);
    if (account?.email) {
      await deps.mailer.send(withdrawnPlanMail(account.email, api, record, apiKept, deps.publicUrl)).catch((err: unknown) => logger.error({ err: (err as Error).message, account_id: accountId }, 'the mail saying a withdrawn plan ends was not sent'));
    }
    await deps.audit?.({ account_id: accountId, actor: { type: 'system', id: 'billing', via: 'billing' }, from: null, action: 'billing.withdrawn_ended', target: api, details: { plan: record.plan, subscription: record.subscription_id, ends_at: endsAt, api_withdrawn: !apiKept } });
    return withdrawal;
  };
  return async () => {
    const result: Withdrawals = { ended: [], failed: 0 };
    for await (const { accountId, api, record } of storedRecords(billingStore)) {
      if (!isWithdrawn(deps.plans, api, record)) continue;
      try {
        const ended = await end(accountId, api, record);
        if (ended) result.ended.push(ended);
      } catch (err) {
        result.failed += 1;
        logger.error({ err: (err as Error).message, account_id: accountId, api, subscription: record.subscription_id }, 'a paid plan the catalogue no longer has could not be ended at its period’s end now; the next reconciliation tries again');
      }
    }
    return result;
  };
}
