const UNIT_SECONDS: Readonly<Record<string, number>> = { m: 60, h: 3600, d: 86_400, w: 604_800 };

/** The pattern a period must match: an optional count (not zero) and a unit, minutes to weeks. */
export const PERIOD_PATTERN = '^(?![0]+[mhdwMHDW]$)[0-9]{0,4}[mhdwMHDW]$';

/** A period as the caller gave it, normalised, with its length. */
export interface Period {
  /** Lower-case form sent upstream, e.g. `4h`. */
  text: string;
  seconds: number;
}

/**
 * Parses `<n>m|h|d|w` (n optional, 1 by default, case-insensitive) the way the indexer reads it;
 * undefined for anything else, including a bare number, which the indexer would read as seconds.
 */
export function parsePeriod(value: string): Period | undefined {
  const match = /^([0-9]{0,4})([mhdw])$/i.exec(value.trim());
  if (!match) return undefined;
  const count = match[1] === '' ? 1 : Number(match[1]);
  if (count < 1) return undefined;
  const unit = match[2]!.toLowerCase();
  return { text: `${count}${unit}`, seconds: count * UNIT_SECONDS[unit]! };
}

/** Writes seconds in the indexer's duration syntax, in the largest whole unit. */
export function formatDuration(seconds: number): string {
  for (const unit of ['w', 'd', 'h', 'm']) {
    const size = UNIT_SECONDS[unit]!;
    if (seconds >= size && seconds % size === 0) return `${seconds / size}${unit}`;
  }
  return String(Math.max(1, Math.round(seconds)));
}
