import { createHash } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { AppError, summarizeError } from '@tollgate/envelope';
import type { Logger } from '@tollgate/envelope';
import { createSnapshot } from '../domain/snapshot';
import type { Snapshot } from '../domain/snapshot';
import type { DatasetSource, Validators } from './dataset-source';
import { parseBigMacCsv } from './parse-big-mac-csv';

/** How the last contact with the upstream went: `ok` (new copy or 304) or `stale` (failed; older copy kept). */
export type UpstreamStatus = 'ok' | 'stale';

/** The store's state, without I/O. */
export interface StoreStatus {
  snapshot?: Snapshot;
  upstreamStatus: UpstreamStatus;
  /** Why the last attempt failed, while `upstreamStatus` is `stale`. */
  lastError?: string;
}

/** The one in-memory copy of the dataset and its revalidation. */
export interface DatasetStore {
  /**
   * The current copy; when it is older than the TTL a revalidation starts in the background and this
   * copy is still served. With no copy yet, waits for a load, else throws 502 `UPSTREAM_UNAVAILABLE`.
   */
  get(): Promise<Snapshot>;
  /** Revalidates now (one at a time: concurrent callers share the attempt); never throws. */
  refresh(): Promise<void>;
  /** Resolves once no revalidation is in flight. */
  settled(): Promise<void>;
  status(): StoreStatus;
}

/** Options of {@link createDatasetStore}. */
export interface DatasetStoreOptions {
  source: DatasetSource;
  clock: () => number;
  logger: Logger;
  /** How long a copy is fresh before it is revalidated. */
  ttlMs: number;
  /** How long after a failed attempt the next one may start. */
  retryMs: number;
}

/** Creates the store; nothing is fetched until the first `get` or `refresh`. */
export function createDatasetStore(options: DatasetStoreOptions): DatasetStore {
  const { source, clock, logger } = options;
  let snapshot: Snapshot | undefined;
  let validators: Validators = {};
  let bodyHash: string | undefined;
  let lastAttemptAt: number | undefined;
  let lastError: string | undefined;
  // The failure behind lastError, so that a 502 logs its cause (code, host) and not only its text.
  let lastFailure: unknown;
  let inflight: Promise<void> | undefined;

  const due = (): boolean =>
    lastAttemptAt === undefined || clock() - lastAttemptAt >= (lastError === undefined ? options.ttlMs : options.retryMs);

  async function attempt(): Promise<void> {
    lastAttemptAt = clock();
    try {
      const result = await source.fetch(snapshot ? validators : {});
      // An upstream without validators answers 200 with the same bytes; that is a 304 in effect.
      const hash = result.kind === 'modified' ? createHash('sha256').update(result.body).digest('hex') : undefined;
      if (result.kind === 'modified' && hash !== bodyHash) {
        const started = performance.now();
        const rows = parseBigMacCsv(result.body);
        const parseMs = performance.now() - started;
        snapshot = createSnapshot(rows, clock(), parseMs);
        validators = result.validators;
        bodyHash = hash;
        logger.info({ rows: rows.length, release: snapshot.dataset.latestRelease, parse_ms: Math.round(parseMs * 10) / 10 }, 'dataset loaded');
      }
      lastError = undefined;
    } catch (err) {
      // Whatever went wrong (network, status, malformed CSV), the copy we hold stays in service.
      lastError = (err as Error).message;
      lastFailure = err;
      logger.warn({ cause: summarizeError(err), source: source.location, has_copy: snapshot !== undefined }, `dataset refresh failed: ${lastError}`);
    }
  }

  const refresh = (): Promise<void> => {
    inflight ??= attempt().finally(() => {
      inflight = undefined;
    });
    return inflight;
  };

  return {
    async get() {
      if (snapshot) {
        if (due()) void refresh();
        return snapshot;
      }
      if (inflight || due()) await refresh();
      if (snapshot) return snapshot;
      throw new AppError('UPSTREAM_UNAVAILABLE', `the Big Mac dataset is not available yet: ${lastError ?? 'loading'}`, { cause: lastFailure });
    },
    refresh,
    async settled() {
      await inflight;
    },
    status() {
      return { snapshot, upstreamStatus: lastError === undefined ? 'ok' : 'stale', lastError };
    },
  };
}
