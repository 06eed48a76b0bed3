import type { Request, RequestHandler, Router } from 'express';
import type { Logger } from '@tollgate/envelope';
import type { BillingConfig } from '../config';
import type { BillingSummary } from '../domain/billing-summary';
import type { PlanTable } from '../domain/plans';
import type { Account, AccountStore } from '../data/account-store';
import type { NewAuditEntry } from '../data/audit-log';
import type { BackgroundLoops } from '../data/background-loop';
import type { BillingStore } from '../data/billing-store';
import type { TeamStore } from '../data/team-store';
import type { Mailer } from '../mail/mailer';
import { createApplier } from './apply-subscription';
import { createReceiptCopies } from './receipt-copies';
import type { PaymentNotice } from '../domain/event-types';
import { createBillingActions } from './billing-actions';
import { createPlanPreview } from './billing-preview';
import { createBillingAdminRoutes } from './billing-admin-routes';
import type { BillingProvider, CatalogueSync } from './billing-provider';
import { runningAtProvider } from './billing-record';
import { createBillingRoutes } from './billing-routes';
import { createBillingViews, withdrawnFrom } from './billing-views';
import type { AccountBillingView } from './billing-views';
import { createReconciler } from './reconcile';
import type { Reconciliation, Repair } from './reconcile';
import { createStripeProvider } from './stripe/stripe-provider';
import { createWebhookIntake } from './webhook-intake';
import { createWebhookRoute } from './webhook-route';
import { createWithdrawals } from './withdrawals';
import type { Withdrawals } from './withdrawals';

/** What billing is built from. */
export interface BillingDeps {
  /** Unset: card payments are off (paid plans show their prices and whom to ask). */
  config?: BillingConfig;
  supportEmail?: string;
  plans: PlanTable;
  billingStore: BillingStore;
  accountStore: AccountStore;
  /** Whom payment mails go to (the team's owners and billing members). */
  teamStore: TeamStore;
  mailer: Mailer;
  clock: () => number;
  logger: Logger;
  /** The provider; by default Stripe through the official SDK, as `config` says. */
  provider?: BillingProvider;
  /** Told of a payment that failed or came through, and of a paid plan that ended (the composition passes the events room's). */
  onNotice?: (notice: PaymentNotice) => void;
  /** Where reconciliation and the grace sweep run; unset (the CLI): they are only run when asked. */
  loops?: BackgroundLoops;
  /** Records what billing does on its own (a second subscription of an API ended), in the audit log. */
  audit?: (entry: NewAuditEntry) => Promise<void>;
}

/** The billing room, as the composition wires it: routes, the CLI's commands, the jobs, and what the console will read. */
export interface Billing {
  enabled: boolean;
  /** `/dashboard/v1/billing/*` (mount at the root), with the dashboard's caller check for reads and the signed-in person's for what moves money. */
  routes(authenticate: (req: Request) => Promise<{ account: Account }>, person: (req: Request) => Promise<{ account: Account; person: { id: string } }>): Router;
  /** `/admin/billing/*` (mount at the root), behind the admin check. */
  adminRoutes(adminAuth: RequestHandler): Router;
  /** `POST /billing/webhook` (mount at the root, before any body parser). */
  webhookRoute: Router;
  /** The plan of an API the account pays for by card, if any (the dashboard leaves those to billing). */
  billedPlanOf(accountId: string, api: string): Promise<string | undefined>;
  /** Ends the account's paid subscriptions at the provider now, before the account is deleted (with card payments off, there are none). */
  closeAccount(accountId: string): Promise<void>;
  /** MRR per currency and subscriptions by status: the console's summary provider. */
  billingSummary(): Promise<BillingSummary>;
  /** An account's customers, paid subscriptions and comp plans: the console's per-account provider. */
  accountBilling(accountId: string): Promise<AccountBillingView | undefined>;
  reconcile(): Promise<Reconciliation>;
  sweepGrace(): Promise<Repair[]>;
  /** Ends at their period's end the paid plans the catalogue no longer has (after a reload, and with each reconciliation). */
  endWithdrawn(): Promise<Withdrawals>;
  /** `tollgate billing sync`: the catalogue and the webhook endpoint at PUBLIC_URL/billing/webhook. */
  syncCatalogue(): Promise<CatalogueSync>;
  /** Paid plans without their price at the provider, said at start. */
  missingPrices(): Promise<string[]>;
  /** Runs reconciliation every BILLING_RECONCILE_SECONDS and the grace sweep every minute, until `stop`. */
  start(): void;
  stop(): Promise<void>;
}

const GRACE_SWEEP_MS = 60_000;

/** Builds the billing room; with no `config` (no STRIPE_SECRET_KEY) only the routes saying so exist. */
export function createBilling(deps: BillingDeps): Billing {
  const { config, logger } = deps;
  const off = (): never => {
    throw new Error('card payments are off: STRIPE_SECRET_KEY is not set');
  };
  if (!config) {
    return {
      enabled: false,
      routes: (authenticate, person) => createBillingRoutes({ plans: deps.plans, authenticate, person, supportEmail: deps.supportEmail }),
      adminRoutes: (adminAuth) => createBillingAdminRoutes({ adminAuth, supportEmail: deps.supportEmail }),
      webhookRoute: createWebhookRoute({}),
      billedPlanOf: async () => undefined,
      closeAccount: async () => undefined,
      billingSummary: off,
      accountBilling: off,
      reconcile: off,
      sweepGrace: off,
      endWithdrawn: async () => ({ ended: [], failed: 0 }),
      syncCatalogue: off,
      missingPrices: off,
      start: () => undefined,
      stop: async () => undefined,
    };
  }
  const provider = deps.provider ?? createStripeProvider(config, deps.plans, deps.clock);
  const { billingStore, accountStore } = deps;
  const apply = createApplier({ ...deps, provider, graceDays: config.graceDays, publicUrl: config.publicUrl });
  const actions = createBillingActions({ plans: deps.plans, provider, billingStore, apply, publicUrl: config.publicUrl, supportEmail: deps.supportEmail });
  const preview = createPlanPreview({ plans: deps.plans, provider, billingStore, clock: deps.clock, supportEmail: deps.supportEmail });
  const views = createBillingViews({ plans: deps.plans, provider, billingStore, accountStore, logger });
  const reconciler = createReconciler({ provider, billingStore, apply, clock: deps.clock, logger });
  const receipts = createReceiptCopies({ provider, billingStore, accountStore, teamStore: deps.teamStore, mailer: deps.mailer, clock: deps.clock, logger });
  const intake = createWebhookIntake({ provider, billingStore, apply, clock: deps.clock, logger, receipts });
  const endWithdrawn = createWithdrawals({ ...deps, provider, apply, publicUrl: config.publicUrl });

  const jobs = deps.loops
    ? [
        deps.loops.create({
          name: 'billing_reconciliation',
          everyMs: config.reconcileSeconds * 1000,
          job: async () => {
            await reconciler.reconcile();
            await endWithdrawn();
          },
          failure: 'subscriptions were not compared with Stripe’s (nor withdrawn plans ended); the next run does it',
        }),
        deps.loops.create({ name: 'billing_grace', everyMs: Math.min(GRACE_SWEEP_MS, config.reconcileSeconds * 1000), job: async () => void (await reconciler.sweepGrace()), failure: 'plans past their grace were not suspended; the next run does it' }),
      ]
    : [];

  return {
    enabled: true,
    routes: (authenticate, person) =>
      createBillingRoutes({
        plans: deps.plans,
        authenticate,
        person,
        supportEmail: deps.supportEmail,
        ...(deps.audit ? { audit: deps.audit } : {}),
        billing: {
          actions,
          page: (account) => views.page(account),
          preview,
          running: async (account) => Object.entries((await billingStore.getBilling(account.id))?.subscriptions ?? {}).filter(([, r]) => r.state !== 'ended').map(([api, r]) => ({ api, ...r, withdrawn: withdrawnFrom(deps.plans, api, r.plan) })),
        },
      }),
    adminRoutes: (adminAuth) =>
      createBillingAdminRoutes({ adminAuth, supportEmail: deps.supportEmail, billing: { summary: () => views.summary(), account: (id) => views.account(id), reconcile: () => reconciler.reconcile() } }),
    webhookRoute: createWebhookRoute({ provider, intake }),
    async billedPlanOf(accountId, api) {
      const record = (await billingStore.getBilling(accountId))?.subscriptions[api];
      return record && runningAtProvider(record) ? record.plan : undefined;
    },
    closeAccount: (accountId) => actions.closeAccount(accountId),
    billingSummary: () => views.summary(),
    accountBilling: (id) => views.account(id),
    reconcile: () => reconciler.reconcile(),
    sweepGrace: () => reconciler.sweepGrace(),
    endWithdrawn,
    syncCatalogue: () => provider.syncCatalogue(deps.plans, `${config.publicUrl}/billing/webhook`),
    missingPrices: () => provider.missingPrices(deps.plans),
    start() {
      for (const job of jobs) job.start();
    },
    async stop() {
      await Promise.all(jobs.map((job) => job.stop()));
    },
  };
}
