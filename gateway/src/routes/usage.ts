import type { PlanTable } from '../domain/plans';
import type { UsageItem } from '../domain/usage-report';
import { usageReport } from '../domain/usage-report';
import type { KeyRecord } from '../data/key-store';
import type { QuotaStore } from '../data/quota-store';

/** Reads a key's counters for every API and builds its usage lines. */
export async function readUsage(record: KeyRecord, plans: PlanTable, quotaStore: QuotaStore, nowMs: number): Promise<{ id: string; apis: UsageItem[] }> {
  const apis = Object.keys(plans);
  const counts = await Promise.all(apis.map((api) => quotaStore.usage(record.id, api, nowMs)));
  return { id: record.id, apis: usageReport(record.subscriptions, plans, Object.fromEntries(apis.map((api, i) => [api, counts[i]!])), nowMs) };
}
