import { AppError, createQueryParser, ownEntry } from '@tollgate/envelope';
import type { QuerySchema } from '@tollgate/envelope';
import { planProblem, unknownApiMessage } from '../domain/plans';
import type { PlanTable } from '../domain/plans';

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

/** The plans of an API named in a path, or 404 naming the APIs there are. */
export function apiPlansOf(plans: PlanTable, api: string) {
  const apiPlans = ownEntry(plans, api);
  if (!apiPlans) throw new AppError('NOT_FOUND', unknownApiMessage(plans, api));
  return apiPlans;
}

/** Checks a plan name for an API: 404 for an unknown API, 400 naming the plans there are for an unknown plan. */
export function checkPlan(plans: PlanTable, api: string, plan: string, field = 'plan'): void {
  const problem = planProblem(plans, api, plan, field);
  if (problem?.unknown === 'api') throw new AppError('NOT_FOUND', problem.message);
  if (problem) throw new AppError('BAD_REQUEST', problem.message, { details: { parameter: field } });
}
