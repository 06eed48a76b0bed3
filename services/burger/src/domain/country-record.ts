import type { BigMacRow } from './big-mac-row';
import type { Valuation } from './valuation';

/** A country in one release, as index, extremes and country.latest show it. */
export interface CountryRecord {
  iso3: string;
  country: string;
  currency: string;
  local_price: number;
  dollar_price: number;
  raw_valuation_pct: number;
  dollar_exchange_rate: number;
  adjusted_valuation_pct?: number;
}

/** One release of a country's history. */
export interface HistoryEntry {
  date: string;
  local_price: number;
  dollar_price: number;
  raw_valuation_pct: number;
  adjusted_valuation_pct?: number;
}

/** The response record of a row valued against a base; the adjusted figure is omitted when absent. */
export function toCountryRecord(row: BigMacRow, valuation: Valuation): CountryRecord {
  const record: CountryRecord = {
    iso3: row.iso3,
    country: row.name,
    currency: row.currency,
    local_price: row.localPrice,
    dollar_price: row.dollarPrice,
    raw_valuation_pct: valuation.rawPct,
    dollar_exchange_rate: row.dollarEx,
  };
  if (valuation.adjustedPct !== undefined) record.adjusted_valuation_pct = valuation.adjustedPct;
  return record;
}

/** The history entry of a row valued against a base. */
export function toHistoryEntry(row: BigMacRow, valuation: Valuation): HistoryEntry {
  const entry: HistoryEntry = {
    date: row.date,
    local_price: row.localPrice,
    dollar_price: row.dollarPrice,
    raw_valuation_pct: valuation.rawPct,
  };
  if (valuation.adjustedPct !== undefined) entry.adjusted_valuation_pct = valuation.adjustedPct;
  return entry;
}
