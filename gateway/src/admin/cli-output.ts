/**
 * What the operator CLI prints by default: tables and `field  value` lines a person reads in a
 * terminal (`--json` prints the answer as it is, for scripts). Generic over the answers' shapes,
 * so a field added to an answer shows without a change here.
 */

type Row = Record<string, unknown>;

const isRow = (value: unknown): value is Row => typeof value === 'object' && value !== null && !Array.isArray(value);
const isRows = (value: unknown): value is Row[] => Array.isArray(value) && value.length > 0 && value.every(isRow);

/** A key as the console and the portal show it. */
const shownKey = (row: Row): string | undefined => (typeof row.prefix === 'string' && typeof row.last4 === 'string' ? `${row.prefix}…${row.last4}` : undefined);

/** One value in one cell: nested objects as `name=value`, absent values as a dash. */
function cell(value: unknown): string {
  if (value === null || value === undefined || value === '') return '–';
  if (Array.isArray(value)) return value.length === 0 ? '–' : value.map(cell).join(', ');
  if (isRow(value)) {
    if (Object.keys(value).length === 0) return '–';
    return Object.entries(value)
      .map(([name, inner]) => `${name}=${cell(inner)}`)
      .join(' ');
  }
  return String(value);
}

/** A row with a key's `prefix` and `last4` gets one `key` column as it is shown, in their place. */
function withShownKey(row: Row): Row {
  const key = shownKey(row);
  if (key === undefined) return row;
  const out: Row = {};
  for (const [name, value] of Object.entries(row)) {
    if (name === 'prefix') out.key = key;
    else if (name !== 'last4') out[name] = value;
  }
  return out;
}

/** Rows as aligned columns under upper-case headers. */
export function table(rows: Row[]): string {
  const shown = rows.map(withShownKey);
  const columns = [...new Set(shown.flatMap((row) => Object.keys(row)))].filter((name) => !shown.every((row) => isRows(row[name])));
  const cells = shown.map((row) => columns.map((name) => cell(row[name])));
  const widths = columns.map((name, i) => Math.max(name.length, ...cells.map((line) => line[i]!.length)));
  const line = (values: string[]): string => values.map((value, i) => (i === values.length - 1 ? value : value.padEnd(widths[i]!))).join('  ');
  return [line(columns.map((name) => name.toUpperCase())), ...cells.map(line)].join('\n');
}

/** An object as `field  value` lines, then its lists of objects as tables under their names. */
function record(value: Row): string {
  const shown = withShownKey(value);
  const lines: [string, string][] = [];
  const sections: string[] = [];
  for (const [name, inner] of Object.entries(shown)) {
    if (isRows(inner)) sections.push(`${name}:\n${table(inner)}`);
    else if (isRow(inner) && Object.values(inner).length > 0 && Object.values(inner).every(isRow)) {
      // A map of objects (subscriptions by API): a table, each entry's name in the first column.
      sections.push(table(Object.entries(inner).map(([entry, fields]) => ({ [name]: entry, ...(fields as Row) }))));
    } else if (isRow(inner) && Object.values(inner).some((field) => isRow(field) || isRows(field))) {
      sections.push(`${name}:\n${record(inner).replace(/^(?=.)/gm, '  ')}`);
    } else lines.push([name, cell(inner)]);
  }
  const width = Math.max(0, ...lines.map(([name]) => name.length));
  return [lines.map(([name, text]) => `${name.padEnd(width)}  ${text}`).join('\n'), ...sections].filter(Boolean).join('\n\n');
}

/** What a command answered, as a person reads it. */
export function readable(value: unknown): string {
  if (Array.isArray(value)) return value.length === 0 ? '(none)' : isRows(value) ? table(value) : value.map(cell).join('\n');
  if (!isRow(value)) return cell(value);
  const { items, next_cursor: next, ...rest } = value;
  if (Array.isArray(items) && Object.keys(rest).length === 0) {
    const more = typeof next === 'string' ? `\n(more: --cursor ${next})` : '';
    if (items.length === 0) return `(none)${more}`;
    // Items made only of objects (an account with its keys) read better one after another.
    const flat = isRows(items) && items.some((item) => Object.values(item).some((inner) => !isRow(inner) && !isRows(inner)));
    return (flat ? table(items) : items.map(readable).join('\n\n')) + more;
  }
  return record(value);
}
