// Cells a spreadsheet would read as a formula (CSV injection): such text gets a leading apostrophe,
// which spreadsheets show as text and hide. Figures the gateway writes never start with one.
const FORMULA_START = /^[=+\-@\t\r]/;
// RFC 4180: a field holding a quote, a comma or a line break is quoted, quotes doubled; spaces at
// either end are quoted too, as some readers trim them otherwise.
const NEEDS_QUOTES = /["\r\n,]|^\s|\s$/;

/** One CSV field: text made inert for spreadsheets and quoted where RFC 4180 asks; numbers as they are. */
export function csvField(value: string | number | null): string {
  if (value === null) return '';
  if (typeof value === 'number') return String(value);
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** RFC 4180 text: a header line, then the rows, every line ended by CRLF. */
export function toCsv(header: readonly string[], rows: readonly (readonly (string | number | null)[])[]): string {
  return [header, ...rows].map((row) => `${row.map(csvField).join(',')}\r\n`).join('');
}
