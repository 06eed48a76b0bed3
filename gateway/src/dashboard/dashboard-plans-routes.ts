import type { Router } from 'express';
import { sendOk } from '@tollgate/envelope/core';
import type { RouteDoc } from '@tollgate/envelope/core';
import type { Catalogue } from '../domain/catalogue';

const PLAN = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'monthly_quota', 'rate_per_second', 'price', 'currency', 'features', 'offered'],
  properties: {
    name: { type: 'string' },
    monthly_quota: { type: 'integer', description: 'Calls a UTC month, shared by all the account’s keys' },
    rate_per_second: { type: 'integer' },
    price: { type: 'integer', description: 'Monthly price in the smallest currency unit (cents)' },
    currency: { type: 'string' },
    features: { type: 'array', items: { type: 'string' }, description: 'What the pricing table says the plan includes' },
    offered: { type: 'boolean', description: 'false: kept for the accounts that hold it, not taken anew' },
  },
};

const PLANS_DATA = {
  type: 'array',
  items: {
    type: 'object',
    additionalProperties: false,
    required: ['api', 'title', 'summary', 'description_html', 'listed', 'playground_per_day', 'plans'],
    properties: {
      api: { type: 'string', description: 'Its name: the path prefix it is served under' },
      title: { type: 'string' },
      summary: { type: 'string', description: 'One line: what it answers' },
      description_html: { type: 'string', description: 'Its longer description, Markdown rendered as HTML with raw HTML escaped; empty for none' },
      listed: { type: 'boolean', description: 'Shown in the portal’s catalogue (an unlisted API is served, and reachable by its address)' },
      playground_per_day: { type: 'integer', description: 'Calls a UTC day an account may make to this API without a subscription (0: none)' },
      plans: { type: 'array', items: PLAN, description: 'In the catalogue’s order' },
    },
  },
};

/** The public catalogue, described once (merged into DASHBOARD_ROUTES). */
export const DASHBOARD_PLANS_ROUTES = {
  plans: { method: 'get', path: '/dashboard/v1/plans', summary: 'The catalogue: every API with its texts, plans and playground allowance, as the gateway enforces them (no key needed)', data: PLANS_DATA, message: 'Plans listed', errors: ['BAD_REQUEST'] },
} satisfies Record<string, RouteDoc>;

/** The catalogue as the portal shows it: one entry per API, its plans in the catalogue's order. */
export function publicPlans(catalogue: Catalogue): unknown[] {
  return Object.values(catalogue.apis).map((api) => ({
    api: api.name,
    title: api.title,
    summary: api.summary,
    description_html: api.description_html,
    listed: api.listed,
    playground_per_day: api.playground_per_day,
    plans: Object.entries(api.plans).map(([name, p]) => ({ name, monthly_quota: p.monthly_quota, rate_per_second: p.rate_per_second, price: p.price, currency: p.currency, features: p.features, offered: p.offered })),
  }));
}

/** Adds the public `/plans` to the dashboard router: the catalogue in force, made once per catalogue. */
export function addDashboardPlansRoutes(router: Router, catalogue: () => Catalogue): void {
  let made: { from: Catalogue; table: unknown[] } | undefined;
  router.get('/plans', (_req, res) => {
    const now = catalogue();
    if (made?.from !== now) made = { from: now, table: publicPlans(now) };
    sendOk(res, made.table, DASHBOARD_PLANS_ROUTES.plans.message);
  });
}
