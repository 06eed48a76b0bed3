import type { Logger } from '@tollgate/envelope';
import type { Subscription } from '../domain/admission';
import { billingAccess } from '../domain/billing-access';
import type { PaymentNotice } from '../domain/event-types';
import { apiPlansNamed } from '../domain/plans';
import type { PlanTable } from '../domain/plans';
import type { AccountStore } from '../data/account-store';
import { billingRecipients } from '../data/team-recipients';
import type { TeamStore } from '../data/team-store';
import type { NewAuditEntry } from '../data/audit-log';
import type { BillingRecord, BillingStore } from '../data/billing-store';
import type { Mailer } from '../mail/mailer';
import type { BillingProvider, PaidSubscription } from './billing-provider';
import { paymentFailedMail, paymentRecoveredMail } from './billing-mail';
import { recordOf, runningAtProvider, sameRecord } from './billing-record';

/** What applying a provider's subscription did. */
export interface Applied {
  accountId: string;
  api: string;
  record: BillingRecord;
  previous: BillingRecord | null;
  /** False when the store already said the same (a webhook sent twice, a reconciliation without drift). */
  changed: boolean;
  /** Set when it was not applied: another running subscription of the account pays for the API. */
  skipped?: string;
}

/** What the flows that read subscriptions from the provider and apply them share (webhooks, reconciliation). */
export interface ProviderFlowDeps {
  provider: BillingProvider;
  billingStore: BillingStore;
  apply: (paid: PaidSubscription, accountId: string) => Promise<Applied | undefined>;
  clock: () => number;
  logger: Logger;
}

/** What the applier needs. */
export interface ApplyDeps {
  onNotice?: (notice: PaymentNotice) => void;
  plans: PlanTable;
  billingStore: BillingStore;
  accountStore: AccountStore;
  /** Whom payment mails go to: the team's owners and billing members. */
  teamStore: TeamStore;
  mailer: Mailer;
  logger: Logger;
  clock: () => number;
  graceDays: number;
  publicUrl: string;
  /** Ends a second running subscription of an API at the provider (checkouts prevent one; this ends one made anyway). */
  provider?: Pick<BillingProvider, 'cancelNow'>;
  /** Records what billing did on its own (the audit log). */
  audit?: (entry: NewAuditEntry) => Promise<void>;
}

/** Whether admission already reads what billing would write (`undefined`: nothing to write). */
function sameSubscription(current: Subscription | undefined, next: Subscription | null | undefined): boolean {
  if (next === undefined) return true;
  if (next === null || current === undefined) return next === null && current === undefined;
  return current.plan === next.plan && current.status === next.status && current.lapsed === next.lapsed;
}

/** The API's free plan (price 0), which a plan the person cancelled falls back to. */
function freePlanOf(plans: PlanTable, api: string): string | undefined {
  return Object.entries(apiPlansNamed(plans, api)?.plans ?? {}).find(([, plan]) => plan.price === 0)?.[0];
}

/**
 * Writes a subscription as the provider has it now into the store: the billing record and what
 * admission reads, in one step, decided by domain/billing-access.ts from its state and its own time
 * alone (so events in any order, twice, or a reconciliation, all write the same). Mails the person
 * when the change is a payment that failed or one that came through after a failure; the store
 * returns the record before, so exactly one writer sees each such change.
 */
export function createApplier(deps: ApplyDeps): (paid: PaidSubscription, accountId: string) => Promise<Applied | undefined> {
  const { billingStore, logger } = deps;
  const mail = async (accountId: string, build: (to: string) => Parameters<Mailer['send']>[0]): Promise<void> => {
    const account = await deps.accountStore.getAccount(accountId);
    if (!account) return;
    // One mail per person: members do not learn each other's addresses from it.
    for (const to of await billingRecipients(deps.teamStore, account)) {
      await deps.mailer.send(build(to)).catch((err: unknown) => logger.error({ err: (err as Error).message, account_id: accountId }, 'billing mail not sent'));
    }
  };
  const endDuplicate = async (accountId: string, api: string, kept: BillingRecord, paid: PaidSubscription, skipped: string): Promise<void> => {
    const canceled = deps.provider
      ? await deps.provider.cancelNow(paid.id).then(
          () => true,
          (err: unknown) => (logger.error({ err: (err as Error).message, account_id: accountId, other: paid.id }, 'the second subscription could not be canceled now; the next reconciliation tries again'), false),
        )
      : false;
    logger.error({ account_id: accountId, api, kept: kept.subscription_id, other: paid.id, canceled }, `${skipped}; ${canceled ? 'it was canceled now' : 'cancel it'}: refund what it charged in Stripe`);
    if (canceled) {
      const entry: NewAuditEntry = { account_id: accountId, actor: { type: 'system', id: 'billing', via: 'billing' }, from: null, action: 'billing.duplicate_canceled', target: api, details: { kept: kept.subscription_id, canceled: paid.id, plan: paid.plan, amount: paid.amount, currency: paid.currency } };
      await deps.audit?.(entry);
    }
  };
  return async (paid, accountId) => {
    const billing = await billingStore.getBilling(accountId);
    if (!billing) return undefined;
    const { api } = paid;
    const kept = billing.subscriptions[api];
    // One paid subscription per API: checkouts make a second impossible (billing-actions.ts); one made
    // anyway (at the provider by hand, say) is not applied but ended at once, and recorded.
    if (kept && kept.subscription_id !== paid.id && runningAtProvider(kept)) {
      const skipped = `account ${accountId} already pays for ${api} with ${kept.subscription_id}; ${paid.id} (${paid.status}) is not applied`;
      if (runningAtProvider({ status: paid.status } as BillingRecord)) await endDuplicate(accountId, api, kept, paid, skipped);
      return { accountId, api, record: kept, previous: kept, changed: false, skipped };
    }
    const access = billingAccess(paid, deps.graceDays, paid.nowMs, freePlanOf(deps.plans, api));
    const record = recordOf(paid, access, deps.clock());
    const subscription = access.subscription === 'unchanged' ? undefined : access.subscription;
    const current = (await deps.accountStore.getAccount(accountId))?.subscriptions[api];
    if (sameRecord(kept, record) && sameSubscription(current, subscription)) return { accountId, api, record, previous: kept ?? null, changed: false };
    const applied = await billingStore.applyBilling(accountId, api, { record, ...(subscription === undefined ? {} : { subscription }) });
    if (!applied) return undefined;
    const before = applied.previous?.state;
    logger.info({ account_id: accountId, api, subscription: paid.id, status: paid.status, state: record.state, plan: record.plan, was: before ?? null }, 'billing applied');
    const notice = (type: PaymentNotice['type'], data: Record<string, unknown>): void => deps.onNotice?.({ type, accountId, api, plan: record.plan, data: { subscription_id: record.subscription_id, status: record.status, ...data } });
    if (record.state === 'grace' && before !== 'grace') {
      await mail(accountId, (to) => paymentFailedMail(to, api, record, deps.publicUrl));
      notice('payment.failed', { grace_until: record.grace_until });
    }
    if (record.state === 'active' && (before === 'grace' || before === 'lapsed')) {
      await mail(accountId, (to) => paymentRecoveredMail(to, api, record, deps.publicUrl));
      notice('payment.recovered', {});
    }
    if (record.status === 'canceled' && applied.previous?.status !== 'canceled') notice('subscription.canceled', { reason: record.state === 'lapsed' ? 'payment' : 'cancelled' });
    return { accountId, api, record, previous: applied.previous, changed: true };
  };
}
