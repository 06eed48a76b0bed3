import { LATENCY_BOUNDS_MS } from '../domain/latency-histogram';

/**
 * An account's day in detail: calls and errors per key and per endpoint, and a latency histogram.
 * Every engine keeps these as more fields of the account's day of history (`<api>:<outcome>`), so
 * they are written by the same batch, under the same marker, and lapse with the day. Their names
 * start with `~`, which no API name does (config.ts: `[a-z][a-z0-9_-]*`).
 */

/** The endpoint a call is counted under when its route is not known (the service's document was not read). */
export const OTHER_ENDPOINT = 'other';

/** One count of an account's day in detail, as the gateway flushes it (a field of {@link usageFields}). */
export interface UsageDetail {
  accountId: string;
  dayId: string;
  field: string;
  count: number;
}

/** Calls and, of them, errors (4xx, 429, 5xx; refunded calls are neither). */
export interface CallsAndErrors {
  calls: number;
  errors: number;
}

/** One UTC day of an account's calls in detail. */
export interface UsageBreakdownDay {
  day: string;
  /** Per key that called that day, by key id (revoked keys included). */
  keys: ({ key_id: string } & CallsAndErrors)[];
  /** Per endpoint: the API and the OpenAPI path template the call matched, or {@link OTHER_ENDPOINT}. */
  endpoints: ({ api: string; route: string } & CallsAndErrors)[];
  /** Calls per latency bucket (LATENCY_BOUNDS_MS), every bucket listed. */
  latency: number[];
}

/** The field names of the details, built once per flush (never per call). */
export const usageFields = {
  keyCalls: (keyId: string): string => `~kc:${keyId}`,
  keyErrors: (keyId: string): string => `~ke:${keyId}`,
  endpointCalls: (api: string, route: string): string => `~ec:${api} ${route}`,
  endpointErrors: (api: string, route: string): string => `~ee:${api} ${route}`,
  latency: (bucket: number): string => `~l:${bucket}`,
};

/** Whether a field of a day's history is one of the details (not an `<api>:<outcome>` count). */
export const isDetailField = (field: string): boolean => field.startsWith('~');

/** One day's details read back from its fields (the `<api>:<outcome>` counts among them are skipped). */
export function breakdownDay(day: string, fields: Iterable<[string, number]>): UsageBreakdownDay {
  const keys = new Map<string, CallsAndErrors>();
  const endpoints = new Map<string, CallsAndErrors>();
  const latency = LATENCY_BOUNDS_MS.map(() => 0);
  const entry = (map: Map<string, CallsAndErrors>, name: string): CallsAndErrors => {
    let row = map.get(name);
    if (!row) map.set(name, (row = { calls: 0, errors: 0 }));
    return row;
  };
  for (const [field, count] of fields) {
    if (!isDetailField(field) || !(count > 0)) continue;
    const name = field.slice(4);
    const kind = field.slice(0, 4);
    if (kind === '~kc:') entry(keys, name).calls += count;
    else if (kind === '~ke:') entry(keys, name).errors += count;
    else if (kind === '~ec:') entry(endpoints, name).calls += count;
    else if (kind === '~ee:') entry(endpoints, name).errors += count;
    else if (field.startsWith('~l:')) {
      const bucket = Number(field.slice(3));
      if (Number.isInteger(bucket) && bucket >= 0 && bucket < latency.length) latency[bucket]! += count;
    }
  }
  const byName = <T>(a: [string, T], b: [string, T]): number => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);
  return {
    day,
    keys: [...keys].sort(byName).map(([key_id, row]) => ({ key_id, ...row })),
    endpoints: [...endpoints].sort(byName).map(([name, row]) => {
      const space = name.indexOf(' ');
      return { api: name.slice(0, space), route: name.slice(space + 1), ...row };
    }),
    latency,
  };
}
