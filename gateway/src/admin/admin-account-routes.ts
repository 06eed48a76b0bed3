import { Router } from 'express';
import type { Request } from 'express';
import { sendOk } from '@tollgate/envelope/core';
import type { AccountActions } from '../http/account-actions';
import { sendAuditExport } from '../http/audit-actions';
import type { AuditActions } from '../http/audit-actions';
import { adminApiSource } from '../http/audit-source';
import { sendCreated } from '../http/send-created';
import { ADMIN_ACCOUNT_ROUTES as DOCS } from './admin-account-docs';
import type { AuditSource } from '../data/audited-account-store';

/**
 * The account, key and audit routes under `/admin/v1` (mounted by createAdminRoutes, behind its
 * token and JSON body parser): each hands its raw input to one action and sends what it returns;
 * every change is recorded as made through the admin API, from the request's address.
 */
export function createAdminAccountRoutes(actionsFor: (source: AuditSource) => AccountActions, audit: AuditActions): Router {
  const router = Router();
  const actions = (req: Request): AccountActions => actionsFor(adminApiSource(req));
  router.post('/accounts', async (req, res) => sendCreated(res, await actions(req).createAccount(req.body), DOCS.createAccount.message));
  router.get('/accounts', async (req, res) => sendOk(res, await actions(req).listAccounts(req.query), DOCS.listAccounts.message));
  // Before /accounts/:id, which would take `search` for an id.
  router.get('/accounts/search', async (req, res) => sendOk(res, await actions(req).findAccounts(req.query), DOCS.findAccounts.message));
  router.post('/accounts/search', async (req, res) => sendOk(res, await actions(req).findAccounts(req.body), DOCS.findAccountsBySecret.message));
  router.get('/accounts/:id', async (req, res) => sendOk(res, await actions(req).getAccount(req.params.id), DOCS.getAccount.message));
  router.put('/accounts/:id/subscriptions/:api', async (req, res) => sendOk(res, await actions(req).subscribe(req.params.id, req.params.api, req.body), DOCS.subscribe.message));
  router.delete('/accounts/:id/subscriptions/:api', async (req, res) => sendOk(res, await actions(req).cancel(req.params.id, req.params.api), DOCS.cancel.message));
  router.post('/accounts/:id/suspend', async (req, res) => sendOk(res, await actions(req).setStatus(req.params.id, 'suspended'), DOCS.suspend.message));
  router.post('/accounts/:id/reactivate', async (req, res) => sendOk(res, await actions(req).setStatus(req.params.id, 'active'), DOCS.reactivate.message));
  router.post('/accounts/:id/keys', async (req, res) => sendCreated(res, await actions(req).createKey(req.params.id, req.body), DOCS.createKey.message));
  router.get('/accounts/:id/keys', async (req, res) => sendOk(res, await actions(req).listKeys(req.params.id, req.query), DOCS.listKeys.message));
  router.post('/keys/:id/roll', async (req, res) => sendOk(res, await actions(req).rollKey(req.params.id, req.body), DOCS.rollKey.message));
  router.post('/keys/:id/end-grace', async (req, res) => sendOk(res, await actions(req).endGrace(req.params.id), DOCS.endGrace.message));
  router.post('/keys/:id/revoke', async (req, res) => sendOk(res, await actions(req).revokeKey(req.params.id), DOCS.revokeKey.message));
  router.get('/accounts/:id/usage', async (req, res) => sendOk(res, await actions(req).usage(req.params.id), DOCS.usage.message));
  router.get('/accounts/:id/history', async (req, res) => sendOk(res, await actions(req).history(req.params.id, req.query), DOCS.history.message));
  router.get('/audit', async (req, res) => sendOk(res, await audit.list(req.query), DOCS.audit.message));
  router.get('/audit/export', (req, res) => sendAuditExport(res, audit.export(req.query)));
  return router;
}
