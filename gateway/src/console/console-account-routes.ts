import type { Request, Router } from 'express';
import { sendOk } from '@tollgate/envelope/core';
import type { QuerySchema } from '@tollgate/envelope/core';
import type { Catalogue } from '../domain/catalogue';
import type { ApiKey } from '../data/account-store';
import type { AuditEntry } from '../data/audit-log';
import type { AuditSource } from '../data/audited-account-store';
import type { BillingView } from '../data/billing-view';
import type { AccountActions } from '../http/account-actions';
import type { TeamActions } from '../http/team-actions';
import { sendAuditExport } from '../http/audit-actions';
import type { AuditActions } from '../http/audit-actions';
import { requestSource } from '../http/audit-source';
import { createBodyParser } from '../http/body';
import type { OperatorCaller } from './console-session';

const GRANT_BODY: QuerySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['plan'],
  properties: { plan: { type: 'string', minLength: 1, maxLength: 64, description: 'a plan name' } },
};

// An account page shows this many keys and audit entries; the rest are a CLI or admin API away.
const PAGE_KEYS = 100;
const PAGE_AUDIT = 200;

/** What the console's account routes need. */
export interface ConsoleAccountDeps {
  actionsFor: (source: AuditSource) => AccountActions;
  teamActionsFor: (source: AuditSource) => TeamActions;
  audit: AuditActions;
  billing: BillingView;
  /** The catalogue in force: the plans an operator may grant. */
  catalogue: () => Catalogue;
  /** The signed-in operator (401 or 403 otherwise; CSRF checked on changes). */
  signedIn: (req: Request) => Promise<OperatorCaller>;
}

/** The plan table as the plan selector shows it. */
function planChoices(catalogue: Catalogue) {
  return Object.values(catalogue.apis).map(({ name: api, title, plans }) => ({ api, title, plans: Object.entries(plans).map(([name, plan]) => ({ name, price: plan.price, currency: plan.currency, monthly_quota: plan.monthly_quota, offered: plan.offered })) }));
}

/**
 * The console's accounts: the list (newest first, a page at a time), search, one account's page
 * (account, its team's members and roles, keys, subscriptions and billing, usage, 30 days of history, sign-ins, audit entries),
 * its actions (grant or change a plan as a comp, cancel, suspend, reactivate, revoke a key, end a
 * key's grace) and the audit log. Every change goes through the same actions as the admin API, as
 * the signed-in operator, from the request's address.
 */
export function addConsoleAccountRoutes(router: Router, deps: ConsoleAccountDeps): void {
  const parseGrant = createBodyParser<{ plan: string }>(GRANT_BODY);
  const as = async (req: Request): Promise<AccountActions> => {
    const { operator } = await deps.signedIn(req);
    return deps.actionsFor(requestSource(req, { type: 'operator', id: operator.name, via: 'console' }));
  };

  router.get('/accounts', async (req, res) => {
    const actions = await as(req);
    const { cursor, limit } = req.query;
    sendOk(res, await actions.listAccounts({ order: 'newest', limit: limit ?? '25', ...(cursor === undefined ? {} : { cursor }) }), 'Accounts listed');
  });

  router.get('/accounts/search', async (req, res) => {
    sendOk(res, await (await as(req)).findAccounts(req.query), 'Accounts found');
  });

  router.get('/accounts/:id', async (req, res) => {
    const { operator } = await deps.signedIn(req);
    const source = requestSource(req, { type: 'operator', id: operator.name, via: 'console' });
    const actions = deps.actionsFor(source);
    const { id } = req.params;
    const account = await actions.getAccount(id);
    const [keys, usage, history, audit, billing, team] = await Promise.all([
      actions.listKeys(id, { limit: String(PAGE_KEYS) }),
      actions.usage(id),
      actions.history(id, {}),
      deps.audit.list({ account_id: id, limit: String(PAGE_AUDIT) }),
      deps.billing.account(id),
      deps.teamActionsFor(source).members(id),
    ]);
    const signIns = audit.items.filter((e: AuditEntry) => e.action === 'account.sign_in').slice(0, 10);
    sendOk(
      res,
      { account, members: team.members, keys: keys.items as ApiKey[], more_keys: keys.next_cursor !== null, usage: usage.apis, history, billing: billing ?? null, sign_ins: signIns, audit: audit.items, more_audit: audit.next_cursor !== null, plans: planChoices(deps.catalogue()) },
      'Account retrieved',
    );
  });

  // An operator's grant is a comp: active at once, without payment, and shown so.
  router.put('/accounts/:id/subscriptions/:api', async (req, res) => {
    const actions = await as(req);
    const { plan } = parseGrant(req.body);
    sendOk(res, await actions.subscribe(req.params.id, req.params.api, { plan, status: 'active', comp: true }), 'Plan granted');
  });
  router.delete('/accounts/:id/subscriptions/:api', async (req, res) => sendOk(res, await (await as(req)).cancel(req.params.id, req.params.api), 'Subscription cancelled'));
  router.post('/accounts/:id/suspend', async (req, res) => sendOk(res, await (await as(req)).setStatus(req.params.id, 'suspended'), 'Account suspended'));
  router.post('/accounts/:id/reactivate', async (req, res) => sendOk(res, await (await as(req)).setStatus(req.params.id, 'active'), 'Account reactivated'));
  router.post('/keys/:id/revoke', async (req, res) => sendOk(res, await (await as(req)).revokeKey(req.params.id), 'API key revoked'));
  router.post('/keys/:id/end-grace', async (req, res) => sendOk(res, await (await as(req)).endGrace(req.params.id), 'Grace ended'));

  router.get('/audit', async (req, res) => {
    await deps.signedIn(req);
    sendOk(res, await deps.audit.list(req.query), 'Audit log read');
  });
  router.get('/audit/export', async (req, res) => {
    await deps.signedIn(req);
    await sendAuditExport(res, deps.audit.export(req.query));
  });
}
