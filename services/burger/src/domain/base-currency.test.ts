import { fixtureDataset } from '../../test/support/fixtures';
import { allowedBases, resolveBase } from './base-currency';

const dataset = fixtureDataset();
const row = (iso3: string, date: string) => dataset.historyByIso3.get(iso3)?.find((r) => r.date === date);

describe('resolveBase', () => {
  it.each([
    ['usd', 'USD'],
    ['EUR', 'EUR'],
    ['Gbp', 'GBP'],
    ['jpy', 'JPY'],
    ['cny', 'CNY'],
    ['chf', 'CHF'],
    ['LBP', 'LBP'],
  ])('when the base is %s, then it resolves to %s', (input, code) => {
    expect(resolveBase(dataset, input)?.code).toBe(code);
  });

  it.each([['xyz'], ['vef'], ['lkr'], ['']])('when the base is %p (not a currency of the latest release), then it is unknown', (input) => {
    expect(resolveBase(dataset, input)).toBeUndefined();
  });

  it('when the base is computed, then each release is valued against the base row of that same release', () => {
    const chf = resolveBase(dataset, 'chf');
    expect(chf?.valuate(row('USA', '2026-01-01')!)?.rawPct).toBe(-32.63);
    expect(chf?.valuate(row('USA', '2025-01-01')!)?.rawPct).toBe(-27.557);
  });

  it('when the computed base has no row in a release, then rows of that release cannot be valued', () => {
    expect(resolveBase(dataset, 'chf')?.valuate(row('USA', '2015-01-01')!)).toBeUndefined();
    expect(resolveBase(dataset, 'usd')?.valuate(row('USA', '2015-01-01')!)).toEqual({ rawPct: 0, adjustedPct: 0 });
  });
});

describe('allowedBases', () => {
  it('when listed, then the published bases come first and the latest release currencies follow, sorted', () => {
    expect(allowedBases(dataset)).toEqual(['usd', 'eur', 'gbp', 'jpy', 'cny', 'aed', 'chf', 'czk', 'lbp', 'pen', 'ves']);
  });
});
