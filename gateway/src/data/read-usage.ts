import type { PlanTable } from '../domain/plans';
import type { UsageItem } from '../domain/usage-report';
import { usageReport } from '../domain/usage-report';
import type { Account } from './account-store';
import type { KeyRecord } from './key-store';
import type { QuotaStore } from './quota-store';

/** Reads an account's counters for every API and builds its usage lines. */
export async function readAccountUsage(account: Pick<Account, 'id' | 'subscriptions'>, plans: PlanTable, quotaStore: QuotaStore, nowMs: number): Promise<UsageItem[]> {
  const apis = Object.keys(plans);
  const counts = await Promise.all(apis.map((api) => quotaStore.usage(account.id, api, nowMs)));
  return usageReport(account.subscriptions, plans, Object.fromEntries(apis.map((api, i) => [api, counts[i]!])), nowMs);
}

/** A key's usage lines: its account's, which all the account's keys share. */
export async function readUsage(record: KeyRecord, plans: PlanTable, quotaStore: QuotaStore, nowMs: number): Promise<{ id: string; apis: UsageItem[] }> {
  return { id: record.id, apis: await readAccountUsage({ id: record.account_id, subscriptions: record.subscriptions }, plans, quotaStore, nowMs) };
}
