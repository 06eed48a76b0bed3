import { gatewayRouteDocs } from '../../src/gateway-route-docs';
import { ROUTE_ACTIONS } from '../../src/domain/team-roles';

// Routes a caller reaches before any session exists: no role applies.
const BEFORE_SIGN_IN = new Set(['POST /dashboard/v1/signup', 'POST /dashboard/v1/signup/verify', 'POST /dashboard/v1/sign-in', 'POST /dashboard/v1/sign-in/verify', 'POST /dashboard/v1/sign-in/link']);

describe('the roles table covers the dashboard', () => {
  it('when the documented dashboard routes are listed, then every one a session reaches has its action in the roles table', () => {
    const documented = gatewayRouteDocs().dashboard.map((doc) => `${doc.method.toUpperCase()} ${doc.path}`);
    const missing = documented.filter((route) => !BEFORE_SIGN_IN.has(route) && !(route in ROUTE_ACTIONS));
    expect(missing).toEqual([]);
  });
});
