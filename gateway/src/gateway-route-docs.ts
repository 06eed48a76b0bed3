import type { RouteDoc } from '@tollgate/envelope/core';
import { ADMIN_ACCOUNT_ROUTES } from './admin/admin-account-docs';
import { ADMIN_CATALOGUE_ROUTES } from './admin/admin-catalogue-routes';
import { ADMIN_TEAM_ROUTES } from './admin/admin-team-routes';
import { ADMIN_ROUTES } from './admin/admin-routes';
import { BILLING_ADMIN_ROUTES } from './billing/billing-admin-routes';
import { BILLING_ROUTES } from './billing/billing-routes';
import { DASHBOARD_ROUTES } from './dashboard/dashboard-routes';
import { SESSION_COOKIE } from './dashboard/session-auth';
import { EVENT_ROUTES } from './events/event-routes';
import type { GatewayRouteDocs } from './docs/docs-routes';

/** What the customers' `/docs` lists of the gateway's own routes, gathered here so no audience reads another's. */
export function gatewayRouteDocs(): GatewayRouteDocs {
  return { dashboard: [...Object.values(DASHBOARD_ROUTES), ...Object.values(BILLING_ROUTES), ...Object.values(EVENT_ROUTES)], sessionCookie: SESSION_COOKIE };
}

/** The admin API's routes (billing's among them), for the operators' reference at `/admin/docs` (behind the console's sign-in). */
export function operatorRouteDocs(): RouteDoc[] {
  return [...Object.values(ADMIN_ROUTES), ...Object.values(ADMIN_ACCOUNT_ROUTES), ...Object.values(ADMIN_CATALOGUE_ROUTES), ...Object.values(ADMIN_TEAM_ROUTES), ...Object.values(BILLING_ADMIN_ROUTES)];
}
