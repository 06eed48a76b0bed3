import { routeExampleProblems } from '@tollgate/envelope/test/route-examples';
import { ALL_ROUTES } from '../../src/routes/all-routes';
import { healthzRoute, readyzRoute } from '../../src/routes/health-docs';

describe('example answers', () => {
  it('when the routes are described, then each answering data has a real example its schema accepts', () => {
    expect(routeExampleProblems(ALL_ROUTES, [healthzRoute, readyzRoute])).toEqual([]);
  });
});
