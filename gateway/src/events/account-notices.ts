import type { Logger } from '@tollgate/envelope';
import { accountOfKeyId } from '../domain/api-key';
import { EXPIRY_NOTICE_DAYS } from '../domain/event-types';
import { planNamed } from '../domain/plans';
import type { PlanTable } from '../domain/plans';
import { hourWindow, monthWindow } from '../domain/windows';
import type { AccountStore, ApiKey } from '../data/account-store';
import type { BackgroundLoops } from '../data/background-loop';
import type { EventStore } from '../data/event-store';
import type { Stores } from '../data/stores';
import type { AccountEvent } from './event-bus';

/** What the notices about keys, subscriptions and the month need. */
export interface AccountNoticesDeps {
  plans: PlanTable;
  accountStore: AccountStore;
  eventStore: EventStore;
  publish: (event: AccountEvent) => Promise<void>;
  clock: () => number;
  logger: Logger;
}

const DAY_MS = 86_400_000;
const keyData = (key: ApiKey): Record<string, unknown> => ({ key_id: key.id, key_name: key.name, key_prefix: key.prefix, key_last4: key.last4 });

/**
 * `key.revoked`, heard from the store's revocation channel (every gateway hears every revocation,
 * so the notice is claimed once per key first); an id that is not a revoked key (a suspended
 * account, a roll's grace ended) is not one.
 */
export function revokedKeyNotice(deps: AccountNoticesDeps): (id: string) => void {
  return (id) => {
    const accountId = accountOfKeyId(id);
    if (!accountId) return;
    void (async () => {
      const key = await deps.accountStore.getKey(id);
      if (!key?.revoked_at) return;
      const [claimed] = await deps.eventStore.claim([{ accountId, name: `revoked:${id}`, expiresAtMs: deps.clock() + 30 * DAY_MS }], deps.clock());
      if (claimed) await deps.publish({ accountId, type: 'key.revoked', data: { ...keyData(key), revoked_at: key.revoked_at } });
    })().catch((err: unknown) => deps.logger.warn({ err: (err as Error).message, key_id: id }, 'key.revoked not published'));
  };
}

/**
 * The stores as the gateway's rooms use them, telling `subscription.changed` after a subscription
 * is set or cancelled (dashboard, admin API) or billing changes it (to webhooks only: billing mails
 * its own changes): the composition hands these to the rooms, so none of them knows events exist.
 */
export function observeSubscriptions(stores: Stores, publish: (event: AccountEvent) => Promise<void>): Stores {
  const changed = (accountId: string, api: string, subscription: { plan: string; status: string } | null, mail?: false): void =>
    void publish({ accountId, type: 'subscription.changed', data: { api, plan: subscription?.plan ?? null, status: subscription?.status ?? 'cancelled' }, ...(mail === false ? { mail } : {}) });
  // Copies of the stores' own methods (not prototypes of them): a wrapper that spreads a store, as
  // the audit log's does, must find every method on the object it is given.
  const accountStore: AccountStore = { ...stores.accountStore };
  accountStore.setSubscription = async (accountId, api, subscription) => {
    const before = (await stores.accountStore.getAccount(accountId))?.subscriptions[api];
    const account = await stores.accountStore.setSubscription(accountId, api, subscription);
    if (account && (before?.plan !== subscription?.plan || before?.status !== subscription?.status)) changed(accountId, api, subscription);
    return account;
  };
  // An erased account's events go with it at once, whichever engine keeps them: settings,
  // endpoints (URLs and secrets) and every delivery's payload. Erased before the account (a failure
  // leaves the account there to erase again) and after it, for what was queued meanwhile; once the
  // account is gone the store keeps no delivery of it, so nothing comes after.
  accountStore.deleteAccount = async (accountId) => {
    if (!(await stores.accountStore.getAccount(accountId))) return undefined;
    await stores.eventStore.deleteAccountEvents(accountId);
    const deleted = await stores.accountStore.deleteAccount(accountId);
    if (deleted) await stores.eventStore.deleteAccountEvents(accountId);
    return deleted;
  };
  const billingStore: Stores['billingStore'] = { ...stores.billingStore };
  billingStore.applyBilling = async (accountId, api, change) => {
    const before = change.subscription === undefined ? undefined : (await stores.accountStore.getAccount(accountId))?.subscriptions[api];
    const applied = await stores.billingStore.applyBilling(accountId, api, change);
    const after = change.subscription;
    // Webhooks only: billing mails the payments itself and Stripe sends the receipts, so a mail here would say it twice.
    if (applied && after !== undefined && (before?.plan !== after?.plan || before?.status !== after?.status)) changed(accountId, api, after, false);
    return applied;
  };
  return { ...stores, accountStore, billingStore };
}

/** The hourly jobs: `key.expiring` for keys 7 and 1 days from their expiry, and `quota.reset` on a month's first day. */
export interface AccountSweeps {
  /** Runs both once (one gateway of the fleet does each hour's run: claimed first). */
  runOnce(): Promise<void>;
  start(): void;
  stop(): Promise<void>;
}

export function createAccountSweeps(deps: AccountNoticesDeps, loops: BackgroundLoops, everyMs = 3_600_000): AccountSweeps {
  const { accountStore, eventStore, clock } = deps;

  // Only the keys that expire within the longest notice's reach are read (an index by expiry).
  const expiring = async (nowMs: number): Promise<void> => {
    for (const { key, account } of await accountStore.keysExpiringBetween(nowMs, nowMs + Math.max(...EXPIRY_NOTICE_DAYS) * DAY_MS)) {
      if (!key.expires_at) continue;
      const left = Date.parse(key.expires_at) - nowMs;
      // The nearest notice due: 1 day when a day or less is left, else 7 days when a week or less is.
      const days = [...EXPIRY_NOTICE_DAYS].sort((a, b) => a - b).find((d) => left > 0 && left <= d * DAY_MS);
      if (days === undefined) continue;
      const [claimed] = await eventStore.claim([{ accountId: account.id, name: `expiring:${key.id}:${days}`, expiresAtMs: Date.parse(key.expires_at) + DAY_MS }], nowMs);
      if (claimed) await deps.publish({ accountId: account.id, type: 'key.expiring', data: { ...keyData(key), expires_at: key.expires_at, days } });
    }
  };

  const resets = async (nowMs: number): Promise<void> => {
    const month = monthWindow(nowMs);
    if (nowMs - month.startMs >= DAY_MS) return;
    let cursor: string | undefined;
    do {
      const page = await eventStore.listEventAccounts({ cursor, limit: 100 });
      for (const accountId of page.items) {
        const [prefs, endpoints, account] = await Promise.all([eventStore.getPreferences(accountId), eventStore.listEndpoints(accountId), accountStore.getAccount(accountId)]);
        const wanted = prefs.mail['quota.reset'] === true || endpoints.some((e) => e.enabled && e.types.includes('quota.reset'));
        if (!wanted || !account) continue;
        for (const [api, subscription] of Object.entries(account.subscriptions)) {
          const quota = planNamed(deps.plans, api, subscription.plan)?.monthly_quota;
          if (subscription.status !== 'active' || quota === undefined) continue;
          const [claimed] = await eventStore.claim([{ accountId, name: `reset:${api}:${month.id}`, expiresAtMs: month.endMs + DAY_MS }], nowMs);
          if (claimed) await deps.publish({ accountId, type: 'quota.reset', data: { api, plan: subscription.plan, quota, month: month.id, resets_at: new Date(month.endMs).toISOString() } });
        }
      }
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
  };

  const run = async (claimHour: boolean): Promise<void> => {
    const nowMs = clock();
    if (claimHour) {
      const hour = hourWindow(nowMs);
      const [mine] = await eventStore.claim([{ name: `sweep:${hour.id}`, expiresAtMs: hour.endMs + DAY_MS }], nowMs);
      if (!mine) return;
    }
    await expiring(nowMs);
    await resets(nowMs);
  };
  // The timer's runs are the fleet's hourly one (claimed first); a run asked for here is this gateway's own.
  let claimHour = true;
  const loop = loops.create({
    name: 'account_sweeps',
    everyMs,
    job: () => run(claimHour),
    atStart: true,
    failure: 'key expiry and quota reset notices were not sent; the next run sends them',
  });
  return {
    async runOnce() {
      claimHour = false;
      try {
        await loop.run();
      } finally {
        claimHour = true;
      }
    },
    start: () => loop.start(),
    stop: () => loop.stop(),
  };
}
