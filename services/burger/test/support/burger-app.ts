import type { Express } from 'express';
import { createLogger } from '@tollgate/envelope';
import { createApp } from '../../src/app';
import { createDatasetSource } from '../../src/data/create-dataset-source';
import { createDatasetStore } from '../../src/data/dataset-store';
import type { DatasetStore } from '../../src/data/dataset-store';

/** Options of {@link createTestApp}; times in ms. */
export interface TestAppOptions {
  dataUrl: string;
  proxySecret?: string;
  ttlMs?: number;
  retryMs?: number;
  timeoutMs?: number;
}

/** The app on a given upstream, with a hand-driven clock. */
export interface TestApp {
  app: Express;
  store: DatasetStore;
  /** Moves the injected clock forward. */
  advance(ms: number): void;
}

/** Builds the app as main.ts does, but with a clock the test moves and logs discarded. */
export function createTestApp(options: TestAppOptions): TestApp {
  let now = 1_000_000;
  const logger = createLogger({ service: 'burger', level: 'silent', destination: { write: () => undefined } });
  const store = createDatasetStore({
    source: createDatasetSource(options.dataUrl, options.timeoutMs ?? 2000),
    clock: () => now,
    logger,
    ttlMs: options.ttlMs ?? 600_000,
    retryMs: options.retryMs ?? 30_000,
  });
  const app = createApp({ store, logger, proxySecret: options.proxySecret });
  return {
    app,
    store,
    advance: (ms) => {
      now += ms;
    },
  };
}
