import { AppError } from '@tollgate/envelope/core';
import { ACCOUNT_ACTIONS } from '../domain/account-actions';
import type { AccountAction } from '../domain/account-actions';
import { secondsUntil } from '../domain/windows';
import type { QuotaStore } from '../data/quota-store';

/** Counts one of an account's limited actions; past its limit, a 429 naming the limit (the action is not done). */
export type ActionLimiter = (accountId: string, action: AccountAction) => Promise<void>;

/** The limiter on the store's counters (shared by every gateway), with the most each action may be done per window. */
export function createActionLimiter(deps: { quotaStore: Pick<QuotaStore, 'countAction'>; clock: () => number; limits: Partial<Record<AccountAction, number>> }): ActionLimiter {
  return async (accountId, action) => {
    const max = deps.limits[action];
    if (max === undefined) return;
    const nowMs = deps.clock();
    if ((await deps.quotaStore.countAction(accountId, action, nowMs)) <= max) return;
    const { window, limit, refusal } = ACCOUNT_ACTIONS[action];
    const retry = secondsUntil(window(nowMs).endMs, nowMs);
    throw new AppError('RATE_LIMITED', `${refusal(max)} Try again in ${retry} seconds.`, { headers: { 'Retry-After': String(retry) }, details: { limit, max } });
  };
}
