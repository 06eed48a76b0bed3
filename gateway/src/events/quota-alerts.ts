import { DEFAULT_THRESHOLDS, crossingCount } from '../domain/event-types';
import { apiPlansNamed } from '../domain/plans';
import type { PlanTable } from '../domain/plans';
import type { QuotaObserver } from '../domain/usage-event';
import { monthWindow } from '../domain/windows';
import type { BackgroundLoops } from '../data/background-loop';
import type { EventStore, EventClaimRequest } from '../data/event-store';
import type { AccountEvent } from './event-bus';

/** What the quota alerts need. */
export interface QuotaAlertsDeps {
  plans: PlanTable;
  eventStore: EventStore;
  publish: (event: AccountEvent) => Promise<void>;
  clock: () => number;
  loops: BackgroundLoops;
  /** How often reached thresholds are claimed in the store (ms). */
  flushMs?: number;
  /** How often the store is asked whether any account's own thresholds changed (ms). */
  reloadMs?: number;
}

/** `quota.threshold_reached`, computed from the counts admission already answers. */
export interface QuotaAlerts {
  /** The observer of one API, for its gate. */
  observerFor(api: string): QuotaObserver;
  /** Claims what was reached and publishes what this gateway claimed first. */
  flush(): Promise<void>;
  /** Reads every account's own thresholds again (after a change here; other gateways see it within `reloadMs`). */
  reload(): Promise<void>;
  start(): void;
  stop(): Promise<void>;
}

interface Reached {
  accountId: string;
  keyId: string;
  api: string;
  plan: string;
  used: number;
  quota: number;
  threshold: number;
  monthId: string;
  resetsAtMs: number;
}

/**
 * Threshold crossings without a round trip: the gate hands over `used` after each admitted call,
 * and below the account's lowest threshold that is one comparison. At or past a threshold not yet
 * seen this month, the crossing is noted in process and claimed in the store off the call path
 * (every `flushMs`, in one batch): `claim` holds each (account, API, month, threshold) once across
 * every gateway and Cluster master until the month's end, so it fires once whichever gateway saw
 * it, and a refund that takes the count back under and over again fires nothing new.
 */
export function createQuotaAlerts(deps: QuotaAlertsDeps): QuotaAlerts {
  const { eventStore } = deps;
  let custom = new Map<string, Record<string, number[]>>();
  let version = -1;
  // Per account: `<api>|<threshold>` noted this month; cleared when the month turns.
  let noted = new Map<string, Set<string>>();
  let notedMonth = '';
  let pending: Reached[] = [];

  const reached = (accountId: string, keyId: string, api: string, plan: string, used: number, quota: number, nowMs: number): void => {
    const thresholds = custom.get(accountId)?.[api] ?? DEFAULT_THRESHOLDS;
    const month = monthWindow(nowMs);
    if (month.id !== notedMonth) {
      noted = new Map();
      notedMonth = month.id;
    }
    let seen = noted.get(accountId);
    for (const threshold of thresholds) {
      if (used < crossingCount(quota, threshold)) continue;
      const name = `${api}|${threshold}`;
      if (seen?.has(name)) continue;
      if (!seen) noted.set(accountId, (seen = new Set()));
      seen.add(name);
      pending.push({ accountId, keyId, api, plan, used, quota, threshold, monthId: month.id, resetsAtMs: month.endMs });
    }
  };

  const observerFor = (api: string): QuotaObserver => {
    // The lowest count any default threshold is reached at, per plan: below it nothing is looked up.
    const quotas = new Map<string, { quota: number; lowest: number }>();
    for (const [plan, limits] of Object.entries(apiPlansNamed(deps.plans, api)?.plans ?? {})) quotas.set(plan, { quota: limits.monthly_quota, lowest: crossingCount(limits.monthly_quota, Math.min(...DEFAULT_THRESHOLDS)) });
    return (accountId, keyId, plan, used, nowMs) => {
      const limits = quotas.get(plan);
      if (!limits || (used < limits.lowest && (custom.size === 0 || !custom.has(accountId)))) return;
      reached(accountId, keyId, api, plan, used, limits.quota, nowMs);
    };
  };

  const claimAndPublish = async (): Promise<void> => {
    if (!pending.length) return;
    const batch = pending;
    pending = [];
    const claims: EventClaimRequest[] = batch.map((r) => ({ accountId: r.accountId, name: `quota:${r.api}:${r.monthId}:${r.threshold}`, expiresAtMs: r.resetsAtMs + 86_400_000 }));
    let won: boolean[];
    try {
      won = await eventStore.claim(claims, deps.clock());
    } catch (err) {
      // Claimed again with the next flush: nothing is published before it is claimed.
      pending = [...batch, ...pending];
      throw new Error(`quota alerts not claimed now (${pending.length} held; claimed with the next flush): ${(err as Error).message}`);
    }
    await Promise.all(
      batch.map((r, i) =>
        won[i]
          ? deps.publish({
              accountId: r.accountId,
              type: 'quota.threshold_reached',
              data: { api: r.api, plan: r.plan, quota: r.quota, used: r.used, threshold: r.threshold, month: r.monthId, resets_at: new Date(r.resetsAtMs).toISOString(), key_id: r.keyId },
            })
          : undefined,
      ),
    );
  };
  const flushing = deps.loops.create({ name: 'quota_alerts', everyMs: deps.flushMs ?? 500, job: claimAndPublish, failure: 'reached quota thresholds are held and claimed with the next run' });
  const reload = async (): Promise<void> => {
    const loaded = await eventStore.customThresholds();
    custom = loaded.thresholds;
    version = loaded.version;
  };
  const reloadIfChanged = async (): Promise<void> => {
    if ((await eventStore.thresholdsVersion()) !== version) await reload();
  };
  const reloading = deps.loops.create({ name: 'quota_thresholds', everyMs: deps.reloadMs ?? 10_000, job: reloadIfChanged, atStart: true, failure: 'accounts’ own quota thresholds were not read; the ones known are kept' });

  return {
    observerFor,
    flush: () => flushing.run(),
    reload,
    start() {
      reloading.start();
      flushing.start();
    },
    async stop() {
      await reloading.stop();
      await flushing.stop();
      await flushing.run();
    },
  };
}
