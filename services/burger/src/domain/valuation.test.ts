import { fixtureDataset } from '../../test/support/fixtures';
import { PUBLISHED_BASES } from './big-mac-row';
import type { BigMacRow } from './big-mac-row';
import { computedValuation, publishedValuation, toPct } from './valuation';

const dataset = fixtureDataset();
const row = (iso3: string, date = '2026-01-01'): BigMacRow => {
  const found = dataset.historyByIso3.get(iso3)?.find((r) => r.date === date);
  if (!found) throw new Error(`fixture has no ${iso3} in ${date}`);
  return found;
};
const BASE_ISO3 = { usd: 'USA', eur: 'EUZ', gbp: 'GBR', jpy: 'JPN', cny: 'CHN' } as const;

describe('toPct', () => {
  it.each([
    [0.11607, 11.607],
    [-0.1357, -13.57],
    [0, 0],
    [2.0005, 200.05],
    [-0.000004, 0],
    [0.123456789, 12.346],
  ])('when the ratio is %p, then the percentage is %p', (ratio, pct) => {
    expect(Object.is(toPct(ratio), pct)).toBe(true);
  });
});

describe('publishedValuation', () => {
  it.each([
    ['CHE', 'usd', { rawPct: 48.433, adjustedPct: 52.769 }],
    ['CHE', 'eur', { rawPct: 28.779, adjustedPct: 14.528 }],
    ['USA', 'usd', { rawPct: 0, adjustedPct: 0 }],
    ['EUZ', 'eur', { rawPct: 0, adjustedPct: 0 }],
    ['LBN', 'usd', { rawPct: -12.416 }],
  ] as const)('when %s is valued against %s, then the published column × 100 comes back', (iso3, base, expected) => {
    expect(publishedValuation(row(iso3), base)).toEqual(expected);
  });
});

describe('computedValuation', () => {
  // The formula must reproduce what The Economist publishes, for every published base.
  it.each(PUBLISHED_BASES.flatMap((base) => ['CHE', 'PER', 'ARE', 'VEN', 'USA'].map((iso3) => [iso3, base] as const)))(
    'when %s is computed against the %s country row, then it equals the published column',
    (iso3, base) => {
      expect(computedValuation(row(iso3), row(BASE_ISO3[base]))).toEqual(publishedValuation(row(iso3), base));
    },
  );

  it.each([
    ['the country', 'LBN', 'CHE'],
    ['the base', 'CHE', 'LBN'],
  ])('when %s has no GDP-adjusted price, then only the raw valuation is given', (_who, iso3, baseIso3) => {
    const valuation = computedValuation(row(iso3), row(baseIso3));
    expect(valuation.adjustedPct).toBeUndefined();
    expect(valuation.rawPct).toBe(toPct(row(iso3).dollarPrice / row(baseIso3).dollarPrice - 1));
  });

  it('when a country is valued against itself, then both valuations are 0', () => {
    expect(computedValuation(row('CHE'), row('CHE'))).toEqual({ rawPct: 0, adjustedPct: 0 });
  });
});
