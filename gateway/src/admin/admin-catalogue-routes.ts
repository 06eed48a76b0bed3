import { Router } from 'express';
import { AppError, sendOk } from '@tollgate/envelope/core';
import type { RouteDoc } from '@tollgate/envelope/core';
import type { Catalogue } from '../domain/catalogue';
import type { AuditSource } from '../data/audited-account-store';
import { CatalogueInvalidError } from '../data/live-catalogue';
import type { CatalogueReload } from '../data/live-catalogue';
import { adminApiSource } from '../http/audit-source';

const names = { type: 'array', items: { type: 'string' } };

const CHANGES_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['added', 'removed', 'changed', 'plansWithdrawn', 'plansRepriced'],
  properties: {
    added: { ...names, description: 'APIs the catalogue has now and did not before' },
    removed: { ...names, description: 'APIs withdrawn: their calls are answered 410, paid plans of them end at their period’s end' },
    changed: { ...names, description: 'APIs whose texts, service, plans or proxy settings changed' },
    plansWithdrawn: { ...names, description: '`api plan` of plans gone or no longer offered' },
    plansRepriced: { ...names, description: '`api plan` of plans whose price changed: new subscriptions pay the new one (after tollgate billing sync), subscribers keep theirs until they change' },
  },
};

const CATALOGUE_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['source', 'digest', 'apis'],
  properties: {
    source: { type: 'string', description: 'Where it was read from' },
    digest: { type: 'string', description: 'Of the file read: gateways showing the same digest serve the same catalogue' },
    apis: { type: 'object', additionalProperties: { type: 'object' }, description: 'Each API as the gateway serves it, defaults filled in' },
  },
};

const RELOAD_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['source', 'digest', 'previous_digest', 'apis', 'changes'],
  properties: {
    source: { type: 'string' },
    digest: { type: 'string' },
    previous_digest: { type: 'string' },
    apis: names,
    changes: CHANGES_SCHEMA,
    followed: { type: 'object', description: 'What billing did (where this gateway runs billing’s work): paid plans of withdrawn APIs and plans ended at their period’s end' },
  },
};

const admin = ['UNAUTHORIZED', 'STORE_UNAVAILABLE'] as const;

/** The catalogue's admin routes, described once. */
export const ADMIN_CATALOGUE_ROUTES = {
  catalogue: { method: 'get', path: '/admin/v1/catalogue', summary: 'The catalogue in force: every API with its plans, texts and proxy settings, and the digest of its file', data: CATALOGUE_SCHEMA, message: 'Catalogue', errors: [...admin] },
  reload: {
    method: 'post',
    path: '/admin/v1/catalogue/reload',
    summary: 'Read the catalogue file again and put it in force, without a restart (as SIGHUP does)',
    description: 'The file is validated first: one that is not valid leaves the running catalogue in force, and the 400 names its line and place. Every gateway reads its own copy: reload each (docs/catalogue.md).',
    data: RELOAD_SCHEMA,
    message: 'Catalogue reloaded',
    errors: ['BAD_REQUEST', ...admin],
  },
} satisfies Record<string, RouteDoc>;

/** What the catalogue's admin routes need. */
export interface AdminCatalogueDeps {
  catalogue: () => Catalogue;
  /** Reloads and records it in the audit log as the source's doing. */
  reloadCatalogue: (by: AuditSource) => Promise<CatalogueReload>;
}

/** `GET /catalogue` and `POST /catalogue/reload` (mounted under `/admin/v1`, behind the admin token). */
export function createAdminCatalogueRoutes(deps: AdminCatalogueDeps): Router {
  const router = Router();
  router.get('/catalogue', (_req, res) => {
    const { source, digest, apis } = deps.catalogue();
    sendOk(res, { source, digest, apis }, ADMIN_CATALOGUE_ROUTES.catalogue.message);
  });
  router.post('/catalogue/reload', async (req, res) => {
    let reload: CatalogueReload;
    try {
      reload = await deps.reloadCatalogue(adminApiSource(req));
    } catch (err) {
      if (err instanceof CatalogueInvalidError) throw new AppError('BAD_REQUEST', err.message, { details: { reason: 'catalogue_invalid' } });
      throw err;
    }
    sendOk(res, reload, ADMIN_CATALOGUE_ROUTES.reload.message);
  });
  return router;
}
