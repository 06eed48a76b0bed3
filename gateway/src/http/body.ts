import { AppError, createQueryParser } from '@tollgate/envelope/core';
import type { QuerySchema } from '@tollgate/envelope/core';
import { apiPlansNamed, planNamed, planProblem, unknownApiMessage } from '../domain/plans';
import type { ApiPlans, Plan, PlanTable } from '../domain/plans';

/**
 * Validates a JSON body with the same ajv rules and messages as query strings (unknown fields are
 * named, as are missing ones and what they allow).
 */
export function createBodyParser<T>(schema: QuerySchema): (body: unknown) => T {
  const parse = createQueryParser<T>(schema);
  return (body) => {
    if (body !== undefined && (typeof body !== 'object' || body === null || Array.isArray(body))) {
      throw new AppError('BAD_REQUEST', 'the request body must be a JSON object');
    }
    return parse(body ?? {});
  };
}

/**
 * The plans of the API a caller named (in a path or a body), or 400 naming the APIs there are; a
 * name every object inherits (`__proto__`, `constructor`) is no API.
 */
export function apiPlansOf(plans: PlanTable, api: string, parameter = 'api'): ApiPlans {
  const apiPlans = apiPlansNamed(plans, api);
  if (!apiPlans) throw new AppError('BAD_REQUEST', unknownApiMessage(plans, api), { details: { parameter } });
  return apiPlans;
}

/** The plan a caller named for an API, or 400 naming the APIs, or the API's plans, there are. */
export function planOf(plans: PlanTable, api: string, plan: string, field = 'plan'): Plan {
  const problem = planProblem(plans, api, plan, field);
  if (problem) throw new AppError('BAD_REQUEST', problem.message, { details: { parameter: problem.unknown === 'api' ? 'api' : field } });
  return planNamed(plans, api, plan) as Plan;
}

/** Refuses a plan the catalogue no longer offers (400 naming those it does), unless the account holds it already. */
export function checkOffered(plans: PlanTable, api: string, plan: string, held?: string): void {
  const apiPlans = apiPlansNamed(plans, api);
  if (!apiPlans || plan === held || planNamed(plans, api, plan)?.offered !== false) return;
  const offered = Object.entries(apiPlans.plans).filter(([, p]) => p.offered !== false).map(([name]) => name);
  throw new AppError('BAD_REQUEST', `the ${api} ${plan} plan is no longer offered; plans: ${offered.join(', ')}`, { details: { parameter: 'plan', reason: 'not_offered' } });
}
