/** A counter (month, day, playground day, sign-ups of an hour) and when it lapses. */
export interface Counter {
  value: number;
  expiresAtMs: number;
}

/** Counters by name, read and added to as Redis's INCR and EXPIRE would. */
export interface Counters {
  /** The live value (0 once lapsed). */
  read(name: string, nowMs: number): number;
  /** Adds `delta` (never below 0), renews the lapse to `ttlS` from now; returns the new value. */
  add(name: string, delta: number, ttlS: number, nowMs: number): number;
  /** Takes one off a counter, without renewing it; drops it if lapsed. */
  takeOne(name: string, nowMs: number): void;
}

// Expired counters are dropped every this many writes, so a long-running process stays small.
const SWEEP_EVERY = 10_000;

/**
 * Counters over `map` (pre-filled by a store that keeps them on disk), telling `changed` of each
 * change or drop; `swept` runs after each sweep, for state that lives as long as its counter.
 */
export function createCounters(map: Map<string, Counter>, changed: ((name: string) => void) | undefined, swept: (nowMs: number) => void): Counters {
  let writes = 0;
  const read = (name: string, nowMs: number): number => {
    const counter = map.get(name);
    return counter && counter.expiresAtMs > nowMs ? counter.value : 0;
  };
  return {
    read,
    add(name, delta, ttlS, nowMs) {
      if (++writes % SWEEP_EVERY === 0) {
        for (const [k, c] of map) {
          if (c.expiresAtMs > nowMs) continue;
          map.delete(k);
          changed?.(k);
        }
        swept(nowMs);
      }
      const value = Math.max(0, read(name, nowMs) + delta);
      const counter = map.get(name);
      // Updated in place: a new object per call would live until the key's next call (see second-log.ts).
      if (counter) {
        counter.value = value;
        counter.expiresAtMs = nowMs + ttlS * 1000;
      } else map.set(name, { value, expiresAtMs: nowMs + ttlS * 1000 });
      changed?.(name);
      return value;
    },
    takeOne(name, nowMs) {
      const counter = map.get(name);
      if (counter && counter.value > 0) counter.value -= 1;
      if (counter && counter.expiresAtMs <= nowMs) map.delete(name);
      if (counter) changed?.(name);
    },
  };
}
