/** A UTC calendar window: its id (used in key names), start, end and length. */
export interface Window {
  id: string;
  startMs: number;
  endMs: number;
}

const pad = (n: number): string => String(n).padStart(2, '0');

/**
 * Remembers the last window computed: every call within it gets the same object back, without
 * the Date arithmetic (the admission path asks several times per call).
 */
function lastWindowMemo(compute: (nowMs: number) => Window): (nowMs: number) => Window {
  let last: Window | undefined;
  return (nowMs) => (last && nowMs >= last.startMs && nowMs < last.endMs ? last : (last = compute(nowMs)));
}

/** The UTC calendar month holding `nowMs`, e.g. `2026-03`. */
export const monthWindow = lastWindowMemo((nowMs: number): Window => {
  const d = new Date(nowMs);
  const startMs = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
  const endMs = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
  return { id: `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}`, startMs, endMs };
});

/** The UTC day holding `nowMs`, e.g. `2026-03-31`. */
export const dayWindow = lastWindowMemo((nowMs: number): Window => {
  const d = new Date(nowMs);
  const startMs = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
  return { id: `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`, startMs, endMs: startMs + 86_400_000 };
});

/** The UTC hour holding `nowMs`, e.g. `2026-03-31T23`. */
export function hourWindow(nowMs: number): Window {
  const startMs = Math.floor(nowMs / 3_600_000) * 3_600_000;
  return { id: new Date(startMs).toISOString().slice(0, 13), startMs, endMs: startMs + 3_600_000 };
}

/** Whole seconds until `endMs`, at least 1 (headers never say 0 while a window is still open). */
export function secondsUntil(endMs: number, nowMs: number): number {
  return Math.max(1, Math.ceil((endMs - nowMs) / 1000));
}

/**
 * Seconds a counter keyed by this window should live: to its end plus a day, so usage stays
 * readable just after a rollover and a refund of a call admitted at 23:59:59 still finds its key.
 */
export function ttlSeconds(window: Window, nowMs: number): number {
  return secondsUntil(window.endMs, nowMs) + 86_400;
}

/** Every UTC day id from `fromDayId` to `toDayId` inclusive (both `YYYY-MM-DD`), oldest first. */
export function dayIds(fromDayId: string, toDayId: string): string[] {
  const ids: string[] = [];
  for (let t = Date.parse(`${fromDayId}T00:00:00Z`), end = Date.parse(`${toDayId}T00:00:00Z`); t <= end; t += 86_400_000) ids.push(dayWindow(t).id);
  return ids;
}
