import type { Express } from 'express';
import request from 'supertest';
import { createLogger, validateResponse } from '@tollgate/envelope';
import type { RouteDoc } from '@tollgate/envelope';
import { createApp } from '../../src/app';
import { createDatasetSource } from '../../src/data/create-dataset-source';
import { createDatasetStore } from '../../src/data/dataset-store';
import type { DatasetStore } from '../../src/data/dataset-store';
import { startCsvUpstream } from './csv-upstream';
import type { CsvUpstream } from './csv-upstream';
import { fixtureText } from './fixtures';

/** Options of {@link createTestApp}; times in ms. */
export interface TestAppOptions {
  dataUrl: string;
  proxySecret?: string;
  ttlMs?: number;
  retryMs?: number;
  /** The download timeout; long by default, so that a stalled test process cannot turn a load into a timeout. */
  timeoutMs?: number;
  /** `source` of every answer, as main.ts makes it from BURGER_SOURCE_LABEL. */
  source?: string;
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
    source: createDatasetSource(options.dataUrl, options.timeoutMs ?? 8_000),
    clock: () => now,
    logger,
    ttlMs: options.ttlMs ?? 600_000,
    retryMs: options.retryMs ?? 30_000,
  });
  const app = createApp({ store, logger, proxySecret: options.proxySecret, source: options.source });
  return {
    app,
    store,
    advance: (ms) => {
      now += ms;
    },
  };
}

/**
 * For a test file over one fixture: serves it from a local upstream while the file runs and builds
 * the app on it. Returns a getter, because the app exists only once `beforeAll` has run.
 */
export function useFixtureApp(fixture: string, options: Omit<TestAppOptions, 'dataUrl'> = {}): () => TestApp {
  let upstream: CsvUpstream | undefined;
  let testApp: TestApp | undefined;
  beforeAll(async () => {
    upstream = await startCsvUpstream(fixtureText(fixture));
    testApp = createTestApp({ ...options, dataUrl: upstream.url });
  });
  afterAll(() => upstream?.close());
  return () => {
    if (!testApp) throw new Error('useFixtureApp: the app is built in beforeAll; use it inside tests');
    return testApp;
  };
}

/** GETs a route (a query string to append, or query parameters) and checks the answer against the route's schema. */
export async function getChecked(app: Express, route: RouteDoc, query: string | Record<string, string>): Promise<request.Response> {
  const res = typeof query === 'string' ? await request(app).get(`${route.path}${query}`) : await request(app).get(route.path).query(query);
  expect(validateResponse(route, res.status, res.body)).toEqual([]);
  return res;
}
