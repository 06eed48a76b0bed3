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

/** Column positions of one file's header. */
type Columns = Record<string, number>;

function cell(record: string[], columns: Columns, column: string): string {
  return (record[columns[column] ?? -1] ?? '').trim();
}

function numberAt(record: string[], columns: Columns, column: string, line: number): number {
  const text = cell(record, columns, column);
  const value = Number(text);
  if (text === '' || !Number.isFinite(value)) {
    throw new InvalidDatasetError(`line ${line}: ${column} is not a number ('${text}')`);
  }
  return value;
}

function codeAt(record: string[], columns: Columns, column: string, pattern: RegExp, line: number): string {
  const text = cell(record, columns, column);
  if (!pattern.test(text)) throw new InvalidDatasetError(`line ${line}: ${column} is malformed ('${text}')`);
  return text;
}

// Written out rather than built in a loop: this runs for every row, once, on a cold start.
function perBase(record: string[], columns: Columns, names: string[], line: number): Record<PublishedBase, number> {
  const [usd = '', eur = '', gbp = '', jpy = '', cny = ''] = names;
  return {
    usd: numberAt(record, columns, usd, line),
    eur: numberAt(record, columns, eur, line),
    gbp: numberAt(record, columns, gbp, line),
    jpy: numberAt(record, columns, jpy, line),
    cny: numberAt(record, columns, cny, line),
  };
}

function toRow(record: string[], columns: Columns, line: number): BigMacRow {
  const name = cell(record, columns, 'name');
  if (!name) throw new InvalidDatasetError(`line ${line}: name is empty`);
  const row: BigMacRow = {
    date: codeAt(record, columns, 'date', DATE, line),
    iso3: codeAt(record, columns, 'iso_a3', CODE, line),
    currency: codeAt(record, columns, 'currency_code', CODE, line),
    name,
    localPrice: numberAt(record, columns, 'local_price', line),
    dollarEx: numberAt(record, columns, 'dollar_ex', line),
    dollarPrice: numberAt(record, columns, 'dollar_price', line),
    raw: perBase(record, columns, RAW_COLUMNS, line),
  };
  // The dataset leaves the GDP-adjusted block empty where it has no GDP figure; then all of it is empty.
  if (cell(record, columns, 'adj_price') !== '') {
    row.adjPrice = numberAt(record, columns, 'adj_price', line);
    row.adjusted = perBase(record, columns, ADJUSTED_COLUMNS, line);
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
  let records: string[][];
  try {
    records = parse(text, { skip_empty_lines: true, bom: true });
  } catch (err) {
    throw new InvalidDatasetError(`not valid CSV: ${(err as Error).message}`, { cause: err });
  }
  const [header = [], ...body] = records;
  const columns: Columns = Object.fromEntries(header.map((name, i) => [name.trim(), i]));
  const missing = REQUIRED_COLUMNS.filter((c) => columns[c] === undefined);
  if (missing.length) throw new InvalidDatasetError(`missing columns: ${missing.join(', ')}`);
  if (body.length === 0) throw new InvalidDatasetError('the file has no data rows');
  const seen = new Set<string>();
  return body.map((record, i) => {
    const row = toRow(record, columns, i + 2);
    const key = `${row.date} ${row.iso3}`;
    if (seen.has(key)) throw new InvalidDatasetError(`line ${i + 2}: ${row.iso3} appears twice in ${row.date}`);
    seen.add(key);
    return row;
  });
}
