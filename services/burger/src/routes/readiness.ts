import type { Readiness } from '@tollgate/envelope';
import type { DatasetStore } from '../data/dataset-store';

/** Ready once a copy is loaded; while not, each probe also (re)starts a load, within the retry delay. */
export function createReadiness(store: DatasetStore): () => Readiness {
  return () => {
    const { snapshot, upstreamStatus, lastError } = store.status();
    if (!snapshot) {
      store.get().catch(() => undefined);
      return { ready: false, reason: `the Big Mac dataset is not loaded yet${lastError ? `: ${lastError}` : ''}` };
    }
    return {
      ready: true,
      details: {
        latest_release: snapshot.dataset.latestRelease,
        countries: snapshot.dataset.latest.length,
        rows: snapshot.dataset.rowCount,
        parse_ms: Math.round(snapshot.parseMs * 10) / 10,
        upstream_status: upstreamStatus,
      },
    };
  };
}
