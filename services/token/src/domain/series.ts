/** A point of a price series as the API answers it. */
export interface SeriesPoint {
  timestamp: number;
  price_usd: number;
}

/** Sorts indexer points by time, ascending, keeping one point per timestamp. */
export function toSeries(points: readonly { timestamp: number; price: number }[]): SeriesPoint[] {
  const byTime = new Map<number, number>();
  for (const p of points) if (!byTime.has(p.timestamp)) byTime.set(p.timestamp, p.price);
  return [...byTime].sort((a, b) => a[0] - b[0]).map(([timestamp, price_usd]) => ({ timestamp, price_usd }));
}
