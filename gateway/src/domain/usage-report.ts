import { ownEntry } from '@tollgate/envelope/core';
import type { Subscription } from './admission';
import type { PlanTable } from './plans';
import { dayWindow, monthWindow, secondsUntil } from './windows';

/** One API's usage line, as the admin API and the dashboard show it. */
export interface UsageItem {
  api: string;
  plan: string | null;
  status: 'active' | 'inactive' | 'none';
  /** `month` for a plan's quota, `day` for the playground allowance. */
  window: 'month' | 'day';
  period: string;
  limit: number;
  used: number;
  remaining: number;
  resets_at: string;
  resets_in_seconds: number;
}

/** JSON Schema of a {@link UsageItem}. */
export const USAGE_ITEM_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['api', 'plan', 'status', 'window', 'period', 'limit', 'used', 'remaining', 'resets_at', 'resets_in_seconds'],
  properties: {
    api: { type: 'string' },
    plan: { type: ['string', 'null'] },
    status: { type: 'string', enum: ['active', 'inactive', 'none'] },
    window: { type: 'string', enum: ['month', 'day'] },
    period: { type: 'string', description: 'The UTC month (2026-03) or day (2026-03-31) counted' },
    limit: { type: 'integer', minimum: 0 },
    used: { type: 'integer', minimum: 0 },
    remaining: { type: 'integer', minimum: 0 },
    resets_at: { type: 'string', format: 'date-time' },
    resets_in_seconds: { type: 'integer', minimum: 1 },
  },
} as const;

/**
 * Usage per API for a key: the month's quota for an active plan, the day's playground allowance
 * where the API has one and the key no active plan; APIs with neither are left out.
 */
export function usageReport(
  subscriptions: Record<string, Subscription>,
  plans: PlanTable,
  counts: Record<string, { month: number; day: number }>,
  nowMs: number,
): UsageItem[] {
  const items: UsageItem[] = [];
  for (const [api, apiPlans] of Object.entries(plans)) {
    const sub = ownEntry(subscriptions, api);
    const count = counts[api] ?? { month: 0, day: 0 };
    const plan = sub?.status === 'active' ? ownEntry(apiPlans.plans, sub.plan) : undefined;
    const base = { api, plan: sub?.plan ?? null, status: sub?.status ?? ('none' as const) };
    if (plan) {
      const month = monthWindow(nowMs);
      items.push({ ...base, window: 'month', period: month.id, limit: plan.monthly_quota, used: count.month, remaining: Math.max(0, plan.monthly_quota - count.month), resets_at: new Date(month.endMs).toISOString(), resets_in_seconds: secondsUntil(month.endMs, nowMs) });
    } else if (apiPlans.playground_per_day > 0) {
      const day = dayWindow(nowMs);
      const limit = apiPlans.playground_per_day;
      items.push({ ...base, window: 'day', period: day.id, limit, used: count.day, remaining: Math.max(0, limit - count.day), resets_at: new Date(day.endMs).toISOString(), resets_in_seconds: secondsUntil(day.endMs, nowMs) });
    }
  }
  return items;
}
