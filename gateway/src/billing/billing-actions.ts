import { AppError, ownEntry } from '@tollgate/envelope/core';
import type { Account } from '../data/account-store';
import type { BillingRecord, BillingStore } from '../data/billing-store';
import { PORTAL_BILLING_PAGE, PORTAL_SUBSCRIPTIONS_PAGE } from '../domain/subscription-refusal';
import { apiPlansNamed, planNamed } from '../domain/plans';
import type { PlanTable } from '../domain/plans';
import type { Applied } from './apply-subscription';
import { asPerson } from './billing-errors';
import { MissingAtProviderError } from './billing-provider';
import type { BillingProvider, PaidSubscription } from './billing-provider';
import { runningAtProvider } from './billing-record';
import { checkOffered } from '../http/body';

/** What a person's billing actions need. */
export interface BillingActionsDeps {
  plans: PlanTable;
  provider: BillingProvider;
  billingStore: BillingStore;
  apply: (paid: PaidSubscription, accountId: string) => Promise<Applied | undefined>;
  publicUrl: string;
  supportEmail?: string;
}

/** Checkout, read-back, plan changes, cancellation and the customer portal, for a signed-in account. */
export interface BillingActions {
  checkout(account: Account, api: string, plan: string): Promise<{ url: string; session_id: string }>;
  /** Reads a Checkout Session back from the provider and applies its subscription (what the return page polls). */
  confirmCheckout(account: Account, sessionId: string): Promise<(BillingRecord & { api: string }) | null>;
  /** With `prorationDate` (a preview's), an upgrade charges exactly what that preview showed. */
  changePlan(account: Account, api: string, plan: string, prorationDate?: number): Promise<BillingRecord>;
  cancel(account: Account, api: string): Promise<BillingRecord>;
  keep(account: Account, api: string): Promise<BillingRecord>;
  portal(account: Account, currency: string | undefined): Promise<{ url: string }>;
  /** Ends every paid subscription of an account still running at the provider, now, and deletes its customers there: the account is being deleted. */
  closeAccount(accountId: string): Promise<void>;
}

const gone = (): AppError => new AppError('UNAUTHORIZED', 'the account of this session no longer exists', { details: { reason: 'no_session' } });

/** The person's billing actions; every change reads the subscription back from the provider and applies it. */
export function createBillingActions(deps: BillingActionsDeps): BillingActions {
  const { provider, billingStore, plans } = deps;
  // A customer the provider no longer has is named to the person by its currency.
  const currencyOf = async (accountId: string, customerId: string): Promise<string | undefined> =>
    Object.entries((await billingStore.getBilling(accountId))?.customers ?? {}).find(([, id]) => id === customerId)?.[0];
  const person = <T>(accountId: string, action: () => Promise<T>): Promise<T> => asPerson(deps.supportEmail, action, (customerId) => currencyOf(accountId, customerId));

  const limitsOf = (api: string, plan: string) => {
    const limits = planNamed(plans, api, plan);
    if (!limits) throw new AppError('BAD_REQUEST', `plan must be one of ${Object.keys(apiPlansNamed(plans, api)?.plans ?? {}).join(', ')} for ${api}`, { details: { parameter: 'plan' } });
    return limits;
  };
  const billed = async (account: Account, api: string): Promise<BillingRecord> => {
    const record = (await billingStore.getBilling(account.id))?.subscriptions[api];
    if (!record || !runningAtProvider(record)) throw new AppError('NOT_FOUND', `this account pays for no ${api} plan by card; take one at ${PORTAL_SUBSCRIPTIONS_PAGE}`);
    return record;
  };
  const applied = async (account: Account, paid: PaidSubscription): Promise<BillingRecord> => {
    const result = await deps.apply(paid, account.id);
    if (!result) throw gone();
    return result.record;
  };
  const customerFor = async (account: Account, currency: string): Promise<string> => {
    const known = (await billingStore.getBilling(account.id))?.customers[currency];
    if (known) return known;
    const made = await provider.createCustomer({ accountId: account.id, email: account.email, name: account.name, currency });
    const kept = await billingStore.rememberCustomer(account.id, currency, made);
    if (!kept) throw gone();
    // Another checkout of this account kept its customer first: this one is not needed.
    if (kept !== made) await provider.deleteCustomer(made).catch(() => undefined);
    return kept;
  };

  /**
   * One checkout of an API per account can be paid (issue 35: two tabs, both paid, left two
   * subscriptions renewing). The new one replaces the one before in the store, in one step, and the
   * one it replaced is made unpayable at the provider; if that one was paid already (its webhook not
   * here yet) and its subscription runs, the new one goes instead and the person is told.
   */
  const oneOpenCheckout = async (account: Account, api: string, sessionId: string): Promise<void> => {
    const replaced = await billingStore.swapCheckout(account.id, api, sessionId);
    if (replaced === undefined) throw gone();
    if (!replaced || replaced === sessionId) return;
    const closed = await provider.closeCheckout(replaced);
    if (closed.state !== 'paid' || !closed.subscriptionId) return;
    const paid = await provider.readSubscription(closed.subscriptionId);
    if (!paid || !runningAtProvider({ status: paid.status } as BillingRecord)) return;
    await provider.closeCheckout(sessionId);
    throw new AppError('CONFLICT', `this account already paid for the ${api} API's ${paid.plan} plan by card in another checkout; it shows at ${PORTAL_BILLING_PAGE} in a moment`, { details: { reason: 'already_billed', api, plan: paid.plan } });
  };

  return {
    checkout: (account, api, plan) =>
      person(account.id, async () => {
        const limits = limitsOf(api, plan);
        checkOffered(plans, api, plan);
        if (!account.email_verified) {
          throw new AppError('FORBIDDEN', "prove this account's email address before taking a plan (until then only the playground is open): POST /dashboard/v1/account/verify-email mails a code", { details: { reason: 'email_unverified' } });
        }
        if (limits.price === 0) throw new AppError('BAD_REQUEST', `the ${api} API's ${plan} plan is free: take it at once with PUT /dashboard/v1/subscriptions/${api}, no card needed`, { details: { parameter: 'plan' } });
        const record = (await billingStore.getBilling(account.id))?.subscriptions[api];
        if (record && runningAtProvider(record)) {
          throw new AppError('CONFLICT', `this account already pays for the ${api} API's ${record.plan} plan by card: change the plan instead (PUT /dashboard/v1/billing/subscriptions/${api}), or pay its open invoice at ${PORTAL_BILLING_PAGE}`, { details: { reason: 'already_billed', api, plan: record.plan } });
        }
        const customerId = await customerFor(account, limits.currency);
        const session = await provider.createCheckout({
          customerId,
          accountId: account.id,
          api,
          plan,
          successUrl: `${deps.publicUrl}${PORTAL_BILLING_PAGE}?checkout={CHECKOUT_SESSION_ID}`,
          cancelUrl: `${deps.publicUrl}${PORTAL_SUBSCRIPTIONS_PAGE}?checkout=canceled`,
        });
        await oneOpenCheckout(account, api, session.id);
        return { url: session.url, session_id: session.id };
      }),
    confirmCheckout: (account, sessionId) =>
      person(account.id, async () => {
        const session = await provider.readCheckout(sessionId);
        const customers = Object.values((await billingStore.getBilling(account.id))?.customers ?? {});
        // Only the account's own sessions: the id in the return address is not proof of anything.
        if (!session || session.accountId !== account.id || !session.customerId || !customers.includes(session.customerId)) {
          throw new AppError('NOT_FOUND', 'no checkout of this account has that id');
        }
        if (!session.complete || !session.subscriptionId) return null;
        const paid = await provider.readSubscription(session.subscriptionId);
        return paid ? { api: paid.api, ...(await applied(account, paid)) } : null;
      }),
    changePlan: (account, api, plan, prorationDate) =>
      person(account.id, async () => {
        const target = limitsOf(api, plan);
        const record = await billed(account, api);
        checkOffered(plans, api, plan, record.plan);
        if (record.status !== 'active' && record.status !== 'trialing') {
          throw new AppError('CONFLICT', `the ${api} API's ${record.plan} plan has an unpaid invoice: pay it at ${PORTAL_BILLING_PAGE} before changing the plan`, { details: { reason: 'payment_due' } });
        }
        if (plan === record.plan) return applied(account, await provider.keepCurrentPlan(record.subscription_id));
        // A free plan is what a cancelled one falls back to: cancel at the period's end.
        if (target.price === 0) return applied(account, await provider.cancelAtPeriodEnd(record.subscription_id));
        const paid = target.price >= record.amount ? await provider.changePlanNow(record.subscription_id, api, plan, prorationDate) : await provider.changePlanAtPeriodEnd(record.subscription_id, api, plan);
        return applied(account, paid);
      }),
    cancel: (account, api) =>
      person(account.id, async () => {
        const record = await billed(account, api);
        return applied(account, await provider.cancelAtPeriodEnd(record.subscription_id));
      }),
    keep: (account, api) =>
      person(account.id, async () => {
        const record = await billed(account, api);
        // What the catalogue no longer has was set to end with its period: keeping it would charge for it again.
        if (!ownEntry(ownEntry(plans, api)?.plans ?? {}, record.plan)) throw new AppError('BAD_REQUEST', `the ${api} ${record.plan} plan was withdrawn from the catalogue and ends at its period’s end; choose another ${api} plan at ${PORTAL_SUBSCRIPTIONS_PAGE}`, { details: { reason: 'withdrawn' } });
        return applied(account, await provider.keepCurrentPlan(record.subscription_id));
      }),
    // Before the account's data is erased, so a failure leaves both as they were (a 502 to retry).
    closeAccount: (accountId) =>
      person(accountId, async () => {
        const billing = await billingStore.getBilling(accountId);
        // What the provider no longer has is as canceled, and as deleted, as can be.
        const gone = (err: unknown): void => {
          if (!(err instanceof MissingAtProviderError)) throw err;
        };
        for (const record of Object.values(billing?.subscriptions ?? {})) {
          if (runningAtProvider(record)) await provider.cancelNow(record.subscription_id).catch(gone);
        }
        // The customer holds the person's address at the provider too (its invoices stay there, as the law keeps them).
        for (const customerId of Object.values(billing?.customers ?? {})) await provider.deleteCustomer(customerId).catch(gone);
      }),
    portal: (account, currency) =>
      person(account.id, async () => {
        const customers = (await billingStore.getBilling(account.id))?.customers ?? {};
        const chosen = currency ?? (Object.keys(customers).length === 1 ? Object.keys(customers)[0] : undefined);
        const customerId = chosen ? customers[chosen] : undefined;
        if (!customerId) {
          const have = Object.keys(customers);
          throw new AppError('NOT_FOUND', have.length ? `currency must be one of ${have.join(', ')}: this account has a card customer for each` : `this account has no card payments yet; take a paid plan at ${PORTAL_SUBSCRIPTIONS_PAGE} first`, { details: { parameter: 'currency' } });
        }
        return { url: await provider.createPortalSession(customerId, `${deps.publicUrl}${PORTAL_BILLING_PAGE}`) };
      }),
  };
}
