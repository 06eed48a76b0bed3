import type { RouteDoc } from '@tollgate/envelope';
import { DASHBOARD_ROUTES } from '../../src/dashboard/dashboard-routes';

/** Every self-service route's RouteDoc. */
export const DASHBOARD_ROUTE_DOCS: RouteDoc[] = Object.values(DASHBOARD_ROUTES);

/** The documented dashboard route a method and concrete path (a query string allowed) are served by, as Express matches it. */
export function dashboardRouteOf(method: string, path: string): RouteDoc | undefined {
  const bare = path.split('?')[0]!;
  return DASHBOARD_ROUTE_DOCS.find((r) => r.method === method && new RegExp(`^${r.path.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(bare));
}
