import type { RequestListener } from 'node:http';
import express from 'express';
import type { ErrorRequestHandler, Express, RequestHandler, Router } from 'express';
import { AppError, createErrorHandler, createHealthRoutes, createNotFoundHandler, createRequestIdMiddleware, createRequestLogger } from '@tollgate/envelope';
import type { createLogger } from '@tollgate/envelope';
import { readCatalogue } from './config';
import type { GatewayConfig } from './config';
import { createCatalogueReloader, createLiveCatalogue } from './data/live-catalogue';
import type { CatalogueReload, LiveCatalogue } from './data/live-catalogue';
import type { Stores } from './data/stores';
import type { ServiceDocuments } from './data/service-documents';
import type { UsageRecorder } from './data/usage-recorder';
import { StoreError } from './data/stores';
import type { GatewayMetrics } from './http/metrics';
import { noStore } from './http/no-store';
import { createAdminAuth, createAdminTokenCheck } from './http/admin-auth';
import type { AdminTokenCheck } from './http/admin-auth';
import { transportSecurity, transportSecurityFor } from './http/transport-security';
import { customerSource } from './http/audit-source';
import { fixedAdminToken } from './data/admin-token';
import type { AdminToken } from './data/admin-token';
import type { NewAuditEntry } from './data/audit-log';
import { auditedAccountStore } from './data/audited-account-store';
import { auditedBillingStore } from './data/audited-billing-store';
import type { AuditDeps, AuditSource } from './data/audited-account-store';
import { createAdminRoutes } from './admin/admin-routes';
import { createApiHandlers, createApiRoutes } from './api/api-routes';
import type { ApiHandler, ApiRoutesDeps } from './api/api-routes';
import { createCorsPolicy } from './api/cors-policy';
import { FailOpenCache } from './api/fail-open-cache';
import { createFastPath, pendingErrorOf } from './api/fast-path';
import { createDashboardRoutes } from './dashboard/dashboard-routes';
import { createDashboardAuth, createPersonAuth } from './dashboard/dashboard-auth';
import { createBilling } from './billing/create-billing';
import type { Billing } from './billing/create-billing';
import { CODE_FIELD, CODE_TTL_MS, createCodes } from './dashboard/sign-in-codes';
import { readUsage } from './data/read-usage';
import { createLogMailer, createSmtpMailer } from './mail/mailer';
import type { Mailer } from './mail/mailer';
import { CHECKS_UNAVAILABLE } from './domain/customer-messages';
import { createPortalRoutes } from './portal/portal-routes';
import { createConsoleRoutes } from './console/console-routes';
import { operatorRouteDocs } from './gateway-route-docs';
import { consoleBillingView } from './billing/console-billing-view';
import { createUpstreamHealth } from './data/upstream-health';
import { createAccountActions } from './http/account-actions';
import { createTeamActions } from './http/team-actions';
import { createEvents } from './events/create-events';
import type { Events } from './events/create-events';
import type { BackgroundLoops } from './data/background-loop';
import { createReadiness } from './http/readiness';

/** Everything the gateway app is built from. */
export interface AppDeps {
  config: GatewayConfig;
  stores: Stores;
  clock: () => number;
  logger: ReturnType<typeof createLogger>;
  metrics: GatewayMetrics;
  /** Each service's OpenAPI document: the routes a call may take, and `/docs`. */
  documents: ServiceDocuments;
  /** The usage history's recorder (the composition root stops it, writing what is left). */
  recorder: UsageRecorder;
  /** More routers (e.g. `/docs`), mounted after health/metrics and before the proxied APIs. */
  routers?: Router[];
  /** Portal mail (sign-in codes, billing); unset: by SMTP_URL, as main.ts chooses (tests build apps from an environment alone). */
  mailer?: Mailer;
  /** The billing room (main.ts runs its jobs); unset: built here from the config. */
  billing?: Billing;
  /** The admin token as main.ts keeps it (ADMIN_TOKEN, or its file); unset: ADMIN_TOKEN alone (tests build apps from an environment). */
  adminToken?: AdminToken;
  /** The events room (main.ts runs its jobs); unset: built here from the config. Its stores are the ones every room gets. */
  events?: Events;
  /** The process's background loops (the rooms' jobs run there), shown in `/readyz`. */
  loops: BackgroundLoops;
  /** The catalogue in force (main.ts keeps it, and reloads it on SIGHUP); unset: made from the config's. */
  catalogue?: LiveCatalogue;
  /** Reads the catalogue again and puts it in force (the admin route); unset: built here, as main.ts builds it. */
  reloadCatalogue?: (by: AuditSource) => Promise<CatalogueReload>;
}

/** The deps with every room built: what an unset mailer, events, billing or catalogue becomes. */
type Composed = AppDeps & { mailer: Mailer; events: Events; billing: Billing; catalogue: LiveCatalogue; reloadCatalogue: (by: AuditSource) => Promise<CatalogueReload> };

function compose(deps: AppDeps): Composed {
  const catalogue = deps.catalogue ?? createLiveCatalogue(deps.config.catalogue, deps.logger);
  const withCatalogue = { ...deps, catalogue };
  const mailer = deps.mailer ?? (deps.config.smtpUrl ? createSmtpMailer(deps.config.smtpUrl, deps.config.mailFrom) : createLogMailer(deps.logger, deps.config.mailFrom));
  const events = deps.events ?? createEventsFor(withCatalogue, mailer);
  // Subscription changes are told from these stores, whichever room makes them.
  const stores = events.stores;
  const billing = deps.billing ?? createBillingFor({ ...withCatalogue, stores }, mailer, events);
  const reloadCatalogue = deps.reloadCatalogue ?? createCatalogueReloaderFor(withCatalogue, billing);
  return { ...deps, stores, mailer, events, billing, catalogue, reloadCatalogue };
}

/**
 * Reloads the catalogue from where the config says it is; where billing's fleet work runs (role
 * all or worker), paid plans a reload withdrew are then ended at their period's end.
 */
export function createCatalogueReloaderFor(deps: Pick<AppDeps, 'config' | 'stores' | 'clock' | 'logger'> & { catalogue: LiveCatalogue }, billing: Pick<Billing, 'endWithdrawn'>): (by: AuditSource) => Promise<CatalogueReload> {
  const { config } = deps;
  const audit = auditDeps(deps);
  return createCatalogueReloader({
    audit: (entry) => deps.stores.auditLog.append(entry).then(
      () => undefined,
      (err: unknown) => audit.onAuditFailure(entry, err as Error),
    ),
    live: deps.catalogue,
    read: () => readCatalogue(config.catalogueSource),
    clock: deps.clock,
    logger: deps.logger,
    ...(config.role === 'api' ? {} : { follow: async () => ({ withdrawals: await billing.endWithdrawn() }) }),
  });
}

// Store failures outside the proxy path (admin, dashboard) are 503s too, never 500s.
const storeErrors: ErrorRequestHandler = (err, _req, _res, next) => {
  next(err instanceof StoreError ? new AppError('STORE_UNAVAILABLE', CHECKS_UNAVAILABLE, { cause: err, headers: { 'Retry-After': '1' } }) : err);
};

/** The gateway: health, metrics, admin API, self-service, then one gated proxy per API. */
export function createApp(deps: AppDeps): Express {
  const composed = compose(deps);
  const api = apiDeps(composed);
  return buildApp(composed, createApiHandlers(api), api.failOpenCache);
}

/**
 * The gateway as a plain request listener: proxied `/{api}/...` calls skip Express (its
 * per-request cost is most of a proxy's budget), running the same API handlers with their own
 * request id and access line; everything else, and every error answer, goes through {@link createApp}'s app.
 */
export function createGatewayListener(deps: AppDeps): { app: Express; listener: RequestListener } {
  const composed = compose(deps);
  const api = apiDeps(composed);
  const handlers = createApiHandlers(api);
  const app = buildApp(composed, handlers, api.failOpenCache);
  return { app, listener: createFastPath({ app, handlers }) };
}

function apiDeps(deps: Composed): ApiRoutesDeps {
  const { config, catalogue } = deps;
  const failOpenCache = new FailOpenCache();
  // A revocation anywhere must reach this cache, or failing open would serve a revoked key.
  if (config.quotaFailMode === 'open') deps.stores.quotaStore.onRevoked((keyId) => failOpenCache.forgetId(keyId), (heard) => failOpenCache.restart(heard));
  return {
    failOpenCache,
    recorder: deps.recorder,
    catalogue,
    keyHeader: config.keyHeader,
    proxySecret: config.proxySecret,
    quotaFailMode: config.quotaFailMode,
    quotaStore: deps.stores.quotaStore,
    documents: deps.documents,
    cors: createCorsPolicy(config.corsOrigins, config.keyHeader),
    trust: config.trust,
    clock: deps.clock,
    logger: deps.logger,
    metrics: deps.metrics,
    transportSecurity: transportSecurityFor(config.publicUrl),
    ...(deps.events.usage ? { usage: deps.events.usage } : {}),
    observerFor: (api) => deps.events.observerFor(api),
  };
}

function buildApp(deps: Composed, handlers: Map<string, ApiHandler>, failOpenCache: FailOpenCache): Express {
  const { config, stores, clock, logger, metrics, catalogue } = deps;
  const { plans } = catalogue;
  // A document a reload moved, or of an API it changed, is asked for again.
  catalogue.onChange((_next, changes) => {
    for (const api of changes.changed) deps.documents.askAgain(api);
  });
  const adminToken = deps.adminToken ?? fixedAdminToken(config.adminToken);
  // One check for every door the admin token opens: wrong tokens are counted per network across them.
  const adminCheck = createAdminTokenCheck({ token: adminToken, sessionStore: stores.sessionStore, clock });
  const audit = auditDeps(deps);
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  // Every answer, errors and the fast path's included (its calls set it themselves).
  app.use(transportSecurity(transportSecurityFor(config.publicUrl)));
  // req.ip (sign-up limiting) believes X-Forwarded-For only from TRUSTED_PROXIES.
  app.set('trust proxy', config.trust);
  // An error raised on the fast path is rendered here, by the one error handler.
  app.use((req, _res, next) => next(pendingErrorOf(req)));
  app.use(createRequestIdMiddleware(), createRequestLogger(logger));

  // Failing open, whether revocations are heard says whether the gateway can yet serve keys it verified.
  const heard = (): { revocations_heard?: boolean } => (config.quotaFailMode === 'open' ? { revocations_heard: failOpenCache.listening } : {});
  app.use(createHealthRoutes(createReadiness({ stores, quotaFailMode: config.quotaFailMode, loops: deps.loops, extra: heard })));
  app.get('/metrics', metricsGuard(config, adminCheck), sendMetrics(metrics));
  const { mailer, billing, events } = deps;
  // Before any body parser: the webhook's signature covers its raw bytes.
  app.use(billing.webhookRoute);
  app.use(['/admin/billing', '/admin/v1/billing'], noStore);
  app.use(billing.adminRoutes(createAdminAuth(adminCheck)));
  const teamActions = createTeamActions({ accountStore: stores.accountStore, teamStore: stores.teamStore, sessionStore: stores.sessionStore, maxMembers: config.teamMaxMembers, ...audit });
  app.use('/admin/v1', noStore, createAdminRoutes({ adminCheck, plans, catalogue: () => catalogue.current(), reloadCatalogue: deps.reloadCatalogue, accountStore: stores.accountStore, quotaStore: stores.quotaStore, clock, teamActions, ...audit }));
  app.use(
    createConsoleRoutes({
      adminCheck,
      operatorEmails: config.operatorEmails,
      sessionStore: stores.sessionStore,
      accountStore: stores.accountStore,
      actionsFor: createAccountActions({ plans, accountStore: stores.accountStore, quotaStore: stores.quotaStore, clock, ...audit }),
      teamActionsFor: teamActions,
      plans,
      catalogue: () => catalogue.current(),
      billing: consoleBillingView(billing),
      health: createUpstreamHealth({ catalogue: () => catalogue.current(), clock }),
      operatorRoutes: operatorRouteDocs(),
      // The portal's codes (their store, tries and limits), for operators' sign-in and customers' proofs.
      codes: { ...createCodes({ sessionStore: stores.sessionStore, mailer, clock, signInsPerHour: config.signInsPerHour }), field: CODE_FIELD, ttlMs: CODE_TTL_MS },
      publicUrl: config.publicUrl,
      mailFailed: (err) => logger.error({ err: err.message }, 'console sign-in mail not sent'),
      clock,
      ...audit,
    }),
  );
  app.use(
    '/dashboard/v1',
    createDashboardRoutes({
      plans,
      catalogue: () => catalogue.current(),
      keyHeader: config.keyHeader,
      accountStore: stores.accountStore,
      quotaStore: stores.quotaStore,
      teamStore: stores.teamStore,
      clock,
      signupsPerHour: config.signupsPerHour,
      teamLimits: { maxMembers: config.teamMaxMembers, maxPendingInvitations: config.teamMaxPendingInvites },
      keysCreatedPerDay: config.keysCreatedPerDay,
      keysRevokedPerDay: config.keysRevokedPerDay,
      readUsage: (record, nowMs) => readUsage(record, plans, stores.quotaStore, nowMs),
      sessionStore: stores.sessionStore,
      mailer,
      signInsPerHour: config.signInsPerHour,
      sessionTtlHours: config.sessionTtlHours,
      publicUrl: config.publicUrl,
      billing: { enabled: billing.enabled, supportEmail: config.supportEmail },
      billedPlanOf: (accountId, api) => billing.billedPlanOf(accountId, api),
      billingOf: (accountId) => stores.billingStore.getBilling(accountId),
      closeBilling: (accountId) => billing.closeAccount(accountId),
      ...audit,
    }),
  );
  const callers = { accountStore: stores.accountStore, sessionStore: stores.sessionStore, teamStore: stores.teamStore, keyHeader: config.keyHeader, clock };
  const authenticate = createDashboardAuth(callers);
  app.use('/dashboard/v1', noStore, billing.routes(authenticate, createPersonAuth(callers, 'start a checkout, change, cancel or keep a paid plan, or open the billing portal')));
  app.use('/dashboard/v1', noStore, events.routes(authenticate, customerSource));
  app.use(createPortalRoutes({ keyHeader: config.keyHeader, apis: () => Object.keys(plans) }));
  for (const router of deps.routers ?? []) app.use(router);
  app.use(createApiRoutes(handlers, catalogue));
  app.use(createNotFoundHandler(), storeErrors, createErrorHandler(logger));
  return app;
}

// A change made and answered whose entry the store did not take: the entry goes to the log instead.
const auditDeps = ({ stores, logger }: Pick<AppDeps, 'stores' | 'logger'>): AuditDeps => ({
  auditLog: stores.auditLog,
  onAuditFailure: (entry: NewAuditEntry, err: Error) => logger.error({ audit_entry: entry, err: err.message }, 'audit log entry not kept in the store; the change it records was made'),
});

/** Plans given or taken by payments are the system's changes in the audit log, not an operator's. */
const BILLING_SOURCE: AuditSource = { actor: { type: 'system', id: 'billing', via: 'billing' }, from: null };

/** The billing room from the config (no jobs: main.ts starts those on the one it builds); its payment changes are told to the events room. */
export function createBillingFor(deps: Pick<AppDeps, 'config' | 'stores' | 'clock' | 'logger' | 'loops'> & { catalogue: LiveCatalogue }, mailer: Mailer, events?: Pick<Events, 'billingNotice'>): Billing {
  const { config, stores } = deps;
  const audit = auditDeps(deps);
  return createBilling({
    loops: deps.loops,
    audit: (entry) => stores.auditLog.append(entry).then(
      () => undefined,
      (err: unknown) => audit.onAuditFailure(entry, err as Error),
    ),
    ...(events ? { onNotice: (notice) => events.billingNotice(notice) } : {}),
    config: config.billing,
    supportEmail: config.supportEmail,
    plans: deps.catalogue.plans,
    billingStore: auditedBillingStore(stores.billingStore, stores.accountStore, auditDeps(deps), BILLING_SOURCE),
    accountStore: auditedAccountStore(stores.accountStore, auditDeps(deps), BILLING_SOURCE),
    teamStore: stores.teamStore,
    mailer,
    clock: deps.clock,
    logger: deps.logger,
  });
}

/** The events room from the config (no jobs: main.ts starts those on the one it builds). */
export function createEventsFor(deps: Pick<AppDeps, 'config' | 'stores' | 'clock' | 'logger' | 'metrics' | 'loops'> & { catalogue: LiveCatalogue }, mailer: Mailer): Events {
  const { config } = deps;
  return createEvents({ config: config.events, plans: deps.catalogue.plans, stores: deps.stores, mailer, clock: deps.clock, logger: deps.logger, metrics: deps.metrics, loops: deps.loops, audit: auditDeps(deps), ...(config.publicUrl ? { publicUrl: config.publicUrl } : {}) });
}

const sendMetrics = (metrics: GatewayMetrics): RequestHandler => async (_req, res) => {
  res.type(metrics.registry.contentType).send(await metrics.registry.metrics());
};

// Metrics name every API, status and store latency: not for the public port. With METRICS_PORT
// they are served there alone; without it, behind the admin token.
function metricsGuard(config: GatewayConfig, adminCheck: AdminTokenCheck): RequestHandler {
  if (config.metricsPort !== undefined) {
    return () => {
      throw new AppError('NOT_FOUND', 'metrics are served on METRICS_PORT, not on this port');
    };
  }
  if (adminCheck.token.source === 'none') {
    return () => {
      throw new AppError('NOT_FOUND', 'metrics are off: set METRICS_PORT to serve them on a port of their own, or ADMIN_TOKEN to serve them here to its bearer');
    };
  }
  return createAdminAuth(adminCheck, { what: 'metrics endpoint' });
}

/**
 * The app of a `GATEWAY_ROLE=worker` process: `/healthz`, `/readyz` (its loops) and `/metrics` as
 * on any gateway; every other path 404, saying this process serves no calls.
 */
export function createWorkerApp(deps: Pick<AppDeps, 'config' | 'stores' | 'logger' | 'metrics' | 'loops' | 'adminToken' | 'clock'>): Express {
  const { config } = deps;
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use(createRequestIdMiddleware(), createRequestLogger(deps.logger));
  app.use(createHealthRoutes(createReadiness({ stores: deps.stores, quotaFailMode: config.quotaFailMode, loops: deps.loops })));
  app.get('/metrics', metricsGuard(config, createAdminTokenCheck({ token: deps.adminToken ?? fixedAdminToken(config.adminToken), sessionStore: deps.stores.sessionStore, clock: deps.clock })), sendMetrics(deps.metrics));
  app.use(() => {
    throw new AppError('NOT_FOUND', 'this gateway runs background work only (GATEWAY_ROLE=worker) and serves no calls; send them to a gateway of role api or all');
  });
  app.use(createErrorHandler(deps.logger));
  return app;
}

/** The app of the metrics port (`METRICS_PORT`): `GET /metrics` and nothing else, no token. */
export function createMetricsApp(deps: Pick<AppDeps, 'metrics' | 'logger'>): Express {
  const app = express();
  app.disable('x-powered-by');
  app.use(createRequestIdMiddleware());
  app.get('/metrics', sendMetrics(deps.metrics));
  app.use(createNotFoundHandler(), createErrorHandler(deps.logger));
  return app;
}
