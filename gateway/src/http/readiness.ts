import type { Readiness } from '@tollgate/envelope';
import type { BackgroundLoops, LoopState } from '../data/background-loop';
import type { Stores } from '../data/stores';

/** What `/readyz` reads. */
export interface ReadinessDeps {
  stores: Pick<Stores, 'kind' | 'quotaStore' | 'persistence'>;
  quotaFailMode: 'closed' | 'open';
  loops: BackgroundLoops;
  /** More details (whether revocations are heard, when failing open). */
  extra?: () => Record<string, unknown>;
}

/** One loop as `/readyz` shows it: a wedged loop is `stale`, with when it last succeeded and how it failed. */
function loopView(state: LoopState): Record<string, unknown> {
  const at = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());
  return {
    every_ms: state.everyMs,
    last_success_at: at(state.lastSuccessMs),
    failures_in_a_row: state.failuresInARow,
    ...(state.lastFailure ? { last_failure: { at: at(state.lastFailure.atMs), error: state.lastFailure.error } } : {}),
    ...(state.runningSinceMs === null ? {} : { running_since: at(state.runningSinceMs) }),
    stale: state.stale,
  };
}

/**
 * Ready while the quota store answers (or, failing open, always: such a gateway is serving on
 * purpose). The background loops are details, never the verdict: a stale loop is a problem of its
 * own part, and taking the API out of rotation for it would spread it.
 */
export function createReadiness(deps: ReadinessDeps): () => Promise<Readiness> {
  const { stores } = deps;
  return async () => {
    const background = Object.fromEntries(deps.loops.states().map((state) => [state.name, loopView(state)]));
    try {
      await stores.quotaStore.ping();
      const persistence = stores.persistence?.();
      return { ready: true, details: { store: stores.kind, ...(persistence === undefined ? {} : { store_persistence: persistence }), ...deps.extra?.(), background } };
    } catch {
      const details = { store: stores.kind, store_reachable: false, quota_fail_mode: deps.quotaFailMode, ...deps.extra?.(), background };
      return deps.quotaFailMode === 'open' ? { ready: true, details } : { ready: false, reason: 'the quota store is unreachable', details };
    }
  };
}
