import { routeExampleProblems } from '@tollgate/envelope/test/route-examples';
import { ROUTES } from '../../src/routes/info-route-docs.js';

describe('example answers', () => {
  it('when the routes are described, then each answering data has a real example its schema accepts', () => {
    expect(routeExampleProblems(ROUTES)).toEqual([]);
  });
});
