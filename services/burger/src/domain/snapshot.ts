import type { BigMacRow } from './big-mac-row';
import { createCountryLookup } from './country-lookup';
import type { LookupResult } from './country-lookup';
import { buildDataset } from './dataset';
import type { Dataset } from './dataset';

/** Most distinct answers one copy keeps serialized; the key space is small, this only bounds abuse. */
const MAX_CACHED = 2000;

/** One loaded copy of the dataset and everything derived from it; replaced whole when a new copy loads. */
export interface Snapshot {
  dataset: Dataset;
  lookup: (query: string) => LookupResult;
  /** When this copy was loaded (injected clock, ms). */
  loadedAt: number;
  /** How long parsing the CSV took, in ms. */
  parseMs: number;
  /** UTF-8 JSON of `data` by request key, computed once per copy: serialization is the cost of a request. */
  cached(key: string, build: () => unknown): Buffer;
}

/** Indexes parsed rows into a snapshot with an empty answer cache. */
export function createSnapshot(rows: BigMacRow[], loadedAt: number, parseMs: number): Snapshot {
  const dataset = buildDataset(rows);
  const cache = new Map<string, Buffer>();
  return {
    dataset,
    lookup: createCountryLookup(dataset),
    loadedAt,
    parseMs,
    cached(key, build) {
      let json = cache.get(key);
      if (json === undefined) {
        json = Buffer.from(JSON.stringify(build()));
        if (cache.size >= MAX_CACHED) cache.clear();
        cache.set(key, json);
      }
      return json;
    },
  };
}
