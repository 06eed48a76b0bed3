import { parse } from 'csv-parse/sync';
import { PUBLISHED_BASES } from '../domain/big-mac-row';
import type { BigMacRow, PublishedBase } from '../domain/big-mac-row';

const RAW_COLUMNS = PUBLISHED_BASES.map((b) => `${b.toUpperCase()}_raw`);
const ADJUSTED_COLUMNS = PUBLISHED_BASES.map((b) => `${b.toUpperCase()}_adjusted`);
const REQUIRED_COLUMNS = [
  'date', 'iso_a3', 'currency_code', 'name', 'local_price', 'dollar_ex', 'dollar_price',
  ...RAW_COLUMNS, 'adj_price', ...ADJUSTED_COLUMNS,
];
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const CODE = /^[A-Z]{3}$/;

/** Why a CSV was refused; the message names the line and the column. */
export class InvalidDatasetError extends Error {
  override readonly name = 'InvalidDatasetError';
}

function numberAt(record: Record<string, string>, column: string, line: number): number {
  const text = (record[column] ?? '').trim();
  const value = Number(text);
  if (text === '' || !Number.isFinite(value)) {
    throw new InvalidDatasetError(`line ${line}: ${column} is not a number ('${text}')`);
  }
  return value;
}

function codeAt(record: Record<string, string>, column: string, pattern: RegExp, line: number): string {
  const text = (record[column] ?? '').trim();
  if (!pattern.test(text)) throw new InvalidDatasetError(`line ${line}: ${column} is malformed ('${text}')`);
  return text;
}

function perBase(record: Record<string, string>, columns: string[], line: number): Record<PublishedBase, number> {
  const entries = PUBLISHED_BASES.map((base, i) => [base, numberAt(record, columns[i] ?? '', line)]);
  return Object.fromEntries(entries) as Record<PublishedBase, number>;
}

function toRow(record: Record<string, string>, line: number): BigMacRow {
  const name = (record.name ?? '').trim();
  if (!name) throw new InvalidDatasetError(`line ${line}: name is empty`);
  const row: BigMacRow = {
    date: codeAt(record, 'date', DATE, line),
    iso3: codeAt(record, 'iso_a3', CODE, line),
    currency: codeAt(record, 'currency_code', CODE, line),
    name,
    localPrice: numberAt(record, 'local_price', line),
    dollarEx: numberAt(record, 'dollar_ex', line),
    dollarPrice: numberAt(record, 'dollar_price', line),
    raw: perBase(record, RAW_COLUMNS, line),
  };
  // The dataset leaves the GDP-adjusted block empty where it has no GDP figure; then all of it is empty.
  if ((record.adj_price ?? '').trim() !== '') {
    row.adjPrice = numberAt(record, 'adj_price', line);
    row.adjusted = perBase(record, ADJUSTED_COLUMNS, line);
  }
  return row;
}

/**
 * Parses and checks the full-index CSV. Throws {@link InvalidDatasetError} on anything that is
 * not a complete, well-formed file, so that a bad download never replaces a good copy.
 */
export function parseBigMacCsv(text: string): BigMacRow[] {
  // Every complete file ends with a line break; a cut-off download usually does not.
  if (!/\n$/.test(text)) throw new InvalidDatasetError('the file does not end with a line break (truncated?)');
  let records: Record<string, string>[];
  try {
    records = parse(text, { columns: true, skip_empty_lines: true, bom: true });
  } catch (err) {
    throw new InvalidDatasetError(`not valid CSV: ${(err as Error).message}`, { cause: err });
  }
  const header = Object.keys(records[0] ?? {});
  const missing = REQUIRED_COLUMNS.filter((c) => !header.includes(c));
  if (records.length === 0) throw new InvalidDatasetError('the file has no data rows');
  if (missing.length) throw new InvalidDatasetError(`missing columns: ${missing.join(', ')}`);
  const seen = new Set<string>();
  return records.map((record, i) => {
    const row = toRow(record, i + 2);
    const key = `${row.date} ${row.iso3}`;
    if (seen.has(key)) throw new InvalidDatasetError(`line ${i + 2}: ${row.iso3} appears twice in ${row.date}`);
    seen.add(key);
    return row;
  });
}
