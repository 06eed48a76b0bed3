import type { BigMacRow } from './big-mac-row';

/** The parsed dataset, indexed once per loaded copy. */
export interface Dataset {
  /** Release dates, ascending. */
  releases: string[];
  latestRelease: string;
  /** The latest release's rows, in file order. */
  latest: BigMacRow[];
  /** Every country's rows across releases, ascending by date, keyed by ISO3. */
  historyByIso3: Map<string, BigMacRow[]>;
  /** The latest release's rows keyed by lower-case currency code. */
  latestByCurrency: Map<string, BigMacRow>;
  rowCount: number;
}

/** Indexes rows by release, country and currency. */
export function buildDataset(rows: BigMacRow[]): Dataset {
  const releases = [...new Set(rows.map((r) => r.date))].sort();
  const latestRelease = releases[releases.length - 1] ?? '';
  const latest = rows.filter((r) => r.date === latestRelease);
  const historyByIso3 = new Map<string, BigMacRow[]>();
  for (const row of rows) {
    const list = historyByIso3.get(row.iso3) ?? [];
    list.push(row);
    historyByIso3.set(row.iso3, list);
  }
  for (const list of historyByIso3.values()) list.sort((a, b) => a.date.localeCompare(b.date));
  const latestByCurrency = new Map(latest.map((r) => [r.currency.toLowerCase(), r]));
  return { releases, latestRelease, latest, historyByIso3, latestByCurrency, rowCount: rows.length };
}
