/** A short-lived memory of answers to identical queries over finalized blocks. */
export interface ResponseCache {
  get<T>(key: string): T | undefined;
  set(key: string, value: unknown): void;
}

/** Options of {@link createResponseCache}. */
export interface ResponseCacheOptions {
  ttlMs: number;
  maxEntries: number;
  clock: () => number;
}

/** A TTL cache bounded in size (oldest entry evicted first); a TTL of 0 disables it. */
export function createResponseCache(options: ResponseCacheOptions): ResponseCache {
  const entries = new Map<string, { value: unknown; expires: number }>();
  return {
    get<T>(key: string): T | undefined {
      const entry = entries.get(key);
      if (!entry) return undefined;
      if (entry.expires <= options.clock()) {
        entries.delete(key);
        return undefined;
      }
      return entry.value as T;
    },
    set(key, value) {
      if (options.ttlMs <= 0) return;
      entries.delete(key);
      entries.set(key, { value, expires: options.clock() + options.ttlMs });
      while (entries.size > options.maxEntries) entries.delete(entries.keys().next().value as string);
    },
  };
}
