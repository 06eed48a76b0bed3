import { Router } from 'express';
import { sendOk } from '@tollgate/envelope';
import type { AdminAccountActions } from './admin-account-actions';
import { ADMIN_ACCOUNT_ROUTES as DOCS } from './admin-account-docs';
import { sendCreated } from '../http/send-created';

/**
 * The account and key routes under `/admin/v1` (mounted by createAdminRoutes, behind its token and
 * JSON body parser): each hands its raw input to one action and sends what it returns.
 */
export function createAdminAccountRoutes(actions: AdminAccountActions): Router {
  const router = Router();
  router.post('/accounts', async (req, res) => sendCreated(res, await actions.createAccount(req.body), DOCS.createAccount.message));
  router.get('/accounts', async (req, res) => sendOk(res, await actions.listAccounts(req.query), DOCS.listAccounts.message));
  router.get('/accounts/:id', async (req, res) => sendOk(res, await actions.getAccount(req.params.id), DOCS.getAccount.message));
  router.put('/accounts/:id/subscriptions/:api', async (req, res) => sendOk(res, await actions.subscribe(req.params.id, req.params.api, req.body), DOCS.subscribe.message));
  router.delete('/accounts/:id/subscriptions/:api', async (req, res) => sendOk(res, await actions.cancel(req.params.id, req.params.api), DOCS.cancel.message));
  router.post('/accounts/:id/suspend', async (req, res) => sendOk(res, await actions.setStatus(req.params.id, 'suspended'), DOCS.suspend.message));
  router.post('/accounts/:id/reactivate', async (req, res) => sendOk(res, await actions.setStatus(req.params.id, 'active'), DOCS.reactivate.message));
  router.post('/accounts/:id/keys', async (req, res) => sendCreated(res, await actions.createKey(req.params.id, req.body), DOCS.createKey.message));
  router.get('/accounts/:id/keys', async (req, res) => sendOk(res, await actions.listKeys(req.params.id, req.query), DOCS.listKeys.message));
  router.post('/keys/:id/roll', async (req, res) => sendOk(res, await actions.rollKey(req.params.id, req.body), DOCS.rollKey.message));
  router.post('/keys/:id/end-grace', async (req, res) => sendOk(res, await actions.endGrace(req.params.id), DOCS.endGrace.message));
  router.get('/accounts/:id/usage', async (req, res) => sendOk(res, await actions.usage(req.params.id), DOCS.usage.message));
  router.get('/accounts/:id/history', async (req, res) => sendOk(res, await actions.history(req.params.id, req.query), DOCS.history.message));
  return router;
}
