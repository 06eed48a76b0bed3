/** A price at a moment. */
export interface PricePoint {
  timestamp: number;
  price: number;
}

/** The two points of a change and the change in percent (null when the start price is 0). */
export interface PriceChange {
  start: PricePoint;
  end: PricePoint;
  change_percent: number | null;
}

/**
 * Matches unsorted indexer points to the two requested moments: each point goes to the moment it is
 * nearest to, if within `window` seconds of it, and the nearest point wins. Windows narrower than
 * half the period keep a point from counting for both ends.
 */
export function pickPoints(
  points: readonly PricePoint[],
  startAt: number,
  endAt: number,
  window: number,
): { start?: PricePoint; end?: PricePoint } {
  const nearest = (at: number): PricePoint | undefined => {
    let best: PricePoint | undefined;
    for (const p of points) {
      const distance = Math.abs(p.timestamp - at);
      if (distance > window) continue;
      if (!best || distance < Math.abs(best.timestamp - at)) best = p;
    }
    return best;
  };
  return { start: nearest(startAt), end: nearest(endAt) };
}

/** The percentage change from start to end, from the two recorded prices. */
export function priceChange(start: PricePoint, end: PricePoint): PriceChange {
  const change = start.price === 0 ? null : ((end.price - start.price) / start.price) * 100;
  return { start, end, change_percent: change };
}

/**
 * How far from each requested moment a record may lie: the indexer's own 6 h default, but less
 * than half the period so the two windows never overlap.
 */
export function changeWindowSeconds(periodSeconds: number): number {
  return Math.min(6 * 3600, Math.floor(periodSeconds / 4));
}
