import { fixtureText } from '../../test/support/fixtures';
import { InvalidDatasetError, parseBigMacCsv } from './parse-big-mac-csv';

describe('parseBigMacCsv', () => {
  it('when the file is a well-formed full index, then every row is typed, with the GDP block only where present', () => {
    const rows = parseBigMacCsv(fixtureText('small-index.csv'));
    expect(rows).toHaveLength(32);
    const usa = rows.find((r) => r.date === '2026-01-01' && r.iso3 === 'USA');
    expect(usa).toEqual({
      date: '2026-01-01',
      iso3: 'USA',
      currency: 'USD',
      name: 'United States',
      localPrice: 6.12,
      dollarEx: 1,
      dollarPrice: 6.12,
      raw: { usd: 0, eur: -0.13241, gbp: -0.1357, jpy: 1.02145, cny: 0.67105 },
      adjPrice: 6.19570568065165,
      adjusted: { usd: 0, eur: -0.25032, gbp: -0.24208, jpy: 0.86937, cny: 0.33367 },
    });
    const lebanon = rows.find((r) => r.date === '2026-01-01' && r.iso3 === 'LBN');
    expect(lebanon?.adjPrice).toBeUndefined();
    expect(lebanon?.adjusted).toBeUndefined();
  });

  it('when the file has Windows line endings or a byte-order mark, then it parses the same', () => {
    const text = fixtureText('small-index.csv');
    expect(parseBigMacCsv(`\ufeff${text.replace(/\n/g, '\r\n')}`)).toEqual(parseBigMacCsv(text));
  });

  it.each([
    ['truncated-mid-row.csv', /does not end with a line break/],
    ['missing-column.csv', /missing columns: JPY_raw/],
    ['short-row.csv', /not valid CSV/],
    ['not-a-number.csv', /line 4: dollar_price is not a number \('NA'\)/],
    ['html-instead-of-csv.csv', /missing columns|not valid CSV/],
    ['duplicate-row.csv', /line 6: .* appears twice in/],
  ])('when the file is %s, then it is refused with a reason', (name, reason) => {
    expect(() => parseBigMacCsv(fixtureText(name))).toThrow(InvalidDatasetError);
    expect(() => parseBigMacCsv(fixtureText(name))).toThrow(reason);
  });

  it.each([
    ['an empty file', ''],
    ['a header only', 'date,iso_a3\n'],
  ])('when the file is %s, then it is refused', (_case, text) => {
    expect(() => parseBigMacCsv(text)).toThrow(InvalidDatasetError);
  });

  it('when one adjusted column is empty while adj_price is set, then the row is refused', () => {
    const lines = fixtureText('small-index.csv').split('\n');
    const cells = (lines[1] ?? '').split(',');
    cells[16] = '';
    lines[1] = cells.join(',');
    expect(() => parseBigMacCsv(lines.join('\n'))).toThrow(/line 2: GBP_adjusted is not a number/);
  });
});
