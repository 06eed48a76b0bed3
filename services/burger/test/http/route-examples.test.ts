import { routeExampleProblems } from '@tollgate/envelope/test/route-examples';
import { ROUTES } from '../../src/app';
import { HEALTHZ_ROUTE, READYZ_ROUTE } from '../../src/routes/health-docs';

describe('example answers', () => {
  it('when the routes are described, then each answering data has a real example its schema accepts', () => {
    expect(routeExampleProblems(ROUTES, [HEALTHZ_ROUTE, READYZ_ROUTE])).toEqual([]);
  });
});
