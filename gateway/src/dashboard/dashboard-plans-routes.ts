import type { Router } from 'express';
import { sendOk } from '@tollgate/envelope';
import type { RouteDoc } from '@tollgate/envelope';
import type { PlanTable } from '../domain/plans';

const PLAN = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'monthly_quota', 'rate_per_second', 'price', 'currency'],
  properties: {
    name: { type: 'string' },
    monthly_quota: { type: 'integer', description: 'Calls a UTC month, shared by all the account’s keys' },
    rate_per_second: { type: 'integer' },
    price: { type: 'integer', description: 'Monthly price in the smallest currency unit (cents)' },
    currency: { type: 'string' },
  },
};

const PLANS_DATA = {
  type: 'array',
  items: {
    type: 'object',
    additionalProperties: false,
    required: ['api', 'playground_per_day', 'plans'],
    properties: {
      api: { type: 'string' },
      playground_per_day: { type: 'integer', description: 'Calls a UTC day an account may make to this API without a subscription (0: none)' },
      plans: { type: 'array', items: PLAN, description: 'In the order of the plan table' },
    },
  },
};

/** The public plan table, described once (merged into DASHBOARD_ROUTES). */
export const DASHBOARD_PLANS_ROUTES = {
  plans: { method: 'get', path: '/dashboard/v1/plans', summary: 'Every API’s plans and playground allowance, as the gateway enforces them (no key needed)', data: PLANS_DATA, message: 'Plans listed', errors: ['BAD_REQUEST'] },
} satisfies Record<string, RouteDoc>;

/** The live plan table as the catalogue shows it: one entry per API, its plans in table order. */
export function publicPlans(plans: PlanTable): unknown[] {
  return Object.entries(plans).map(([api, apiPlans]) => ({
    api,
    playground_per_day: apiPlans.playground_per_day,
    plans: Object.entries(apiPlans.plans).map(([name, p]) => ({ name, monthly_quota: p.monthly_quota, rate_per_second: p.rate_per_second, price: p.price, currency: p.currency })),
  }));
}

/** Adds the public `/plans` to the dashboard router. */
export function addDashboardPlansRoutes(router: Router, plans: PlanTable): void {
  // Fixed for the process's life: built once.
  const table = publicPlans(plans);
  router.get('/plans', (_req, res) => sendOk(res, table, DASHBOARD_PLANS_ROUTES.plans.message));
}
