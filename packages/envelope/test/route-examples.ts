/**
 * The example answers of a service's routes, checked as each service's
 * `test/http/route-examples.test.ts` does: every route that answers data has a documented example
 * (the reference pages show it instead of `"string"` and `0`), and the example, in its envelope,
 * passes the route's own response schema. No test-framework imports.
 */
import { okEnvelope } from '../src/envelope';
import type { OkEnvelope } from '../src/envelope';
import type { RouteDoc } from '../src/route-doc';
import { validateResponse } from '../src/validate-response';

/** The success envelope a client receives around `data`, for `route`. */
export function exampleEnvelope(route: RouteDoc, data: unknown): OkEnvelope<unknown> {
  return okEnvelope(data, route.message, '5f0c2d4e-8a1b-4c3d-9e2f-1a2b3c4d5e6f', new Date('2026-11-28T12:00:00.000Z'));
}

/** What is wrong with the examples of `routes` (empty when nothing); `without` names routes that need none (health). */
export function routeExampleProblems(routes: readonly RouteDoc[], without: readonly RouteDoc[] = []): string[] {
  const problems: string[] = [];
  for (const route of routes) {
    const name = `${route.method.toUpperCase()} ${route.path}`;
    if (without.includes(route)) continue;
    if (route.example === undefined) {
      problems.push(`${name} has no example answer`);
      continue;
    }
    for (const problem of validateResponse(route, route.successStatus ?? 200, exampleEnvelope(route, route.example))) problems.push(`${name}: the example ${problem}`);
  }
  return problems;
}
