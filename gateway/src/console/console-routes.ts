import { dirname, resolve } from 'node:path';
import express, { Router } from 'express';
import type { NextFunction, Request, Response } from 'express';
import { AppError, createOpenApiDocument, sendOk } from '@tollgate/envelope/core';
import type { RouteDoc } from '@tollgate/envelope/core';
import type { Catalogue } from '../domain/catalogue';
import type { PlanTable } from '../domain/plans';
import type { AccountStore } from '../data/account-store';
import type { AuditDeps, AuditSource } from '../data/audited-account-store';
import type { BillingView } from '../data/billing-view';
import type { SessionStore } from '../data/session-store';
import type { UpstreamHealth } from '../data/upstream-health';
import type { AccountActions } from '../http/account-actions';
import type { AdminTokenCheck } from '../http/admin-auth';
import { createAuditActions } from '../http/audit-actions';
import { noStore } from '../http/no-store';
import { pageHeaders } from '../http/page-headers';
import { routePaths } from '../http/route-openapi';
import { SHARED_WEB_ASSETS, staticAssets } from '../http/web-assets';
import type { MailedCodes } from '../http/mailed-codes';
import { addConsoleAccountRoutes } from './console-account-routes';
import type { TeamActions } from '../http/team-actions';
import { addConsoleCodeRoutes } from './console-code-routes';
import { readOverview } from './console-overview';
import { CONSOLE_NOT_FOUND, CONSOLE_PAGES, renderConsolePage } from './console-pages';
import { createConsoleSessions } from './console-session';
import { addConsoleSignInRoutes } from './console-sign-in-routes';

/** The console's browser files: `gateway/console/`, two levels up from both `src/console/` and `dist/console/`. */
export const CONSOLE_ASSETS = resolve(__dirname, '../../console');
const UPLOT = dirname(require.resolve('uplot/package.json'));
// An account's page: /admin/accounts/acc_ and 24 hex.
const ACCOUNT_PAGE = /^\/admin\/accounts\/acc_[0-9a-f]{24}\/?$/;

/** What the console needs. */
export interface ConsoleDeps extends AuditDeps {
  /** The admin token and its check (wrong tokens limited per network, with the admin API's and /metrics'). */
  adminCheck: AdminTokenCheck;
  operatorEmails: readonly string[];
  sessionStore: SessionStore;
  accountStore: AccountStore;
  actionsFor: (source: AuditSource) => AccountActions;
  /** A team's members (the account page shows them with their roles). */
  teamActionsFor: (source: AuditSource) => TeamActions;
  /** The plan table in force (the live catalogue's). */
  plans: PlanTable;
  /** The catalogue in force: its APIs' titles, and where it was read from. */
  catalogue: () => Catalogue;
  billing: BillingView;
  health: () => Promise<UpstreamHealth[]>;
  /** The admin API's routes, for the operators' reference. */
  operatorRoutes: readonly RouteDoc[];
  /** Mailed codes, as the portal's sign-in makes and checks them (passed in by the composition). */
  codes: MailedCodes;
  /** The gateway's public origin (PUBLIC_URL): the mail's links, and Secure cookies when https. */
  publicUrl?: string;
  /** Told of a sign-in mail the mail server did not take (it goes after the answer). */
  mailFailed: (err: Error) => void;
  clock: () => number;
}

/**
 * Refuses a change asked for by another site (`Sec-Fetch-Site: cross-site` or `same-site`), before
 * any session is read: with the SameSite=Strict cookie and the CSRF token, a third wall.
 */
function sameOriginChanges(req: Request, _res: Response, next: NextFunction): void {
  const site = req.headers['sec-fetch-site'];
  if (req.method !== 'GET' && req.method !== 'HEAD' && (site === 'cross-site' || site === 'same-site')) {
    throw new AppError('FORBIDDEN', 'the console takes changes from its own pages only', { details: { reason: 'cross_site' } });
  }
  next();
}

/**
 * The operators' console under `/admin/` (the admin API stays at `/admin/v1`): pages (one HTML shell
 * each, rendered at start; a signed-out request for any of them is sent to the sign-in page, which
 * is all it gets), their assets, the console's JSON under `/admin/console/v1` (every route but
 * sign-in behind the console session, with CSRF on changes), and the operators' API reference at
 * `/admin/docs`.
 */
export function createConsoleRoutes(deps: ConsoleDeps): Router {
  const router = Router();
  const sessions = createConsoleSessions({ ...deps, adminToken: deps.adminCheck.token });
  const signedIn = (req: Request) => sessions.read(req);
  const audit = createAuditActions(deps.auditLog);
  const pages = new Map(CONSOLE_PAGES.map((page) => [page.id, renderConsolePage(page)]));
  const notFound = renderConsolePage(CONSOLE_NOT_FOUND);
  const reference = createOpenApiDocument({ title: 'Tollgate admin API', version: '1.0.0', description: 'The operators’ API: send the admin token as `Authorization: Bearer <token>` (`ADMIN_TOKEN`, or the gateway’s admin-token file). The same operations are in the console and the tollgate CLI.' }, []);
  reference.paths = routePaths(deps.operatorRoutes, 'admin', [{ adminToken: [] }]);
  reference.components = { securitySchemes: { adminToken: { type: 'http', scheme: 'bearer', description: 'The admin token' } } };

  router.get('/admin', (req, res, next) => (req.path === '/admin' ? res.redirect(301, '/admin/') : next()));
  router.use('/admin', (req, res, next) => (req.path.startsWith('/v1/') || req.path === '/v1' ? next('router') : pageHeaders(req, res, next)));
  router.use('/admin/assets/shared', staticAssets(SHARED_WEB_ASSETS));
  router.use('/admin/assets', staticAssets(CONSOLE_ASSETS));
  router.use('/admin/vendor/uplot', staticAssets(resolve(UPLOT, 'dist')));

  const json = Router();
  json.use(express.json({ limit: '16kb' }), sameOriginChanges);
  addConsoleSignInRoutes(json, { ...deps, sessions });
  addConsoleCodeRoutes(json, { ...deps, sessions, signedIn });
  json.get('/overview', async (req, res) => {
    await signedIn(req);
    sendOk(res, await readOverview(deps), 'Overview');
  });
  addConsoleAccountRoutes(json, { ...deps, audit, signedIn });
  // Signed out, no route answers anything but 401, so nothing is learnt of what exists.
  json.all('/{*rest}', async (req) => {
    await signedIn(req);
    throw new AppError('NOT_FOUND', `no console route for ${req.method} ${req.path}`);
  });
  // Accounts, keys' prefixes and the audit log: never kept by a browser or a proxy.
  router.use('/admin/console/v1', noStore, json);

  router.get('/admin/docs/openapi.json', noStore, async (req, res) => {
    await signedIn(req);
    res.json(reference);
  });

  router.get('/admin/{*rest}', async (req, res) => {
    if (req.path.startsWith('/admin/assets/') || req.path.startsWith('/admin/vendor/')) throw new AppError('NOT_FOUND', `no console asset at ${req.path}`);
    const path = req.path.replace(/\/$/, '') || '/admin';
    const page = ACCOUNT_PAGE.test(req.path) ? 'account' : CONSOLE_PAGES.find((p) => p.id !== 'account' && p.path.replace(/\/$/, '') === path)?.id;
    const send = (html: string, status = 200): void => void res.status(status).set('Cache-Control', 'no-store').type('html').send(html);
    if (page === 'sign-in') return send(pages.get('sign-in')!);
    try {
      await signedIn(req);
    } catch (err) {
      if (!(err instanceof AppError) || err.code !== 'UNAUTHORIZED') throw err;
      // Signed out: the sign-in page, and the way back here once signed in.
      return res.redirect(303, `/admin/sign-in?next=${encodeURIComponent(req.originalUrl)}`);
    }
    if (page === undefined) return send(notFound, 404);
    return send(pages.get(page)!);
  });
  return router;
}
