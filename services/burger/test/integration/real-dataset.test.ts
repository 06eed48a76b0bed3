import request from 'supertest';
import { validateResponse } from '@tollgate/envelope';
import { COUNTRY_ROUTE } from '../../src/routes/country-route';
import { EXTREMES_ROUTE } from '../../src/routes/extremes-route';
import { INDEX_ROUTE } from '../../src/routes/index-route';
import { createTestApp } from '../support/burger-app';
import type { TestApp } from '../support/burger-app';
import { startCsvUpstream } from '../support/csv-upstream';
import type { CsvUpstream } from '../support/csv-upstream';
import { plainRows, realDatasetText } from '../support/real-dataset';

const BASES = ['USD', 'EUR', 'GBP', 'JPY', 'CNY'];
const LATEST = '2026-01-01';
let rows: Record<string, string>[];
let upstream: CsvUpstream;
let t: TestApp;

beforeAll(async () => {
  const text = realDatasetText();
  rows = plainRows(text);
  upstream = await startCsvUpstream(text);
  t = createTestApp({ dataUrl: upstream.url });
});
afterAll(() => upstream?.close());

interface Valued {
  raw_valuation_pct: number;
  adjusted_valuation_pct?: number;
}

/** The published columns × 100 must be what the service says, and a missing figure must be missing. */
function expectPublished(actual: Valued, row: Record<string, string>, base: string): void {
  expect(actual.raw_valuation_pct).toBeCloseTo(Number(row[`${base}_raw`]) * 100, 9);
  const adjusted = row[`${base}_adjusted`];
  if (adjusted === '') expect(actual).not.toHaveProperty('adjusted_valuation_pct');
  else expect(actual.adjusted_valuation_pct).toBeCloseTo(Number(adjusted) * 100, 9);
}

describe('the real full index', () => {
  it.each(BASES)('when base=%s, then every country of the latest release equals the published columns × 100', async (base) => {
    const res = await request(t.app).get('/v1/index').query({ base: base.toLowerCase(), sort: 'name' });
    expect(validateResponse(INDEX_ROUTE, res.status, res.body)).toEqual([]);
    const latest = rows.filter((r) => r.date === LATEST);
    expect(res.body.data).toMatchObject({ count: 54, release_date: LATEST, base_currency: base });
    expect(latest).toHaveLength(54);
    for (const row of latest) {
      const record = res.body.data.countries.find((c: { iso3: string }) => c.iso3 === row.iso_a3);
      expect(record).toMatchObject({
        country: row.name,
        currency: row.currency_code,
        local_price: Number(row.local_price),
        dollar_price: Number(row.dollar_price),
        dollar_exchange_rate: Number(row.dollar_ex),
      });
      expectPublished(record, row, base);
    }
  });

  it('when base=usd, then Lebanon and Venezuela have no adjusted figure and the US is 0 / 0 / 1', async () => {
    const res = await request(t.app).get('/v1/index');
    const countries: (Valued & { iso3: string; dollar_exchange_rate: number })[] = res.body.data.countries;
    expect(countries.filter((c) => !('adjusted_valuation_pct' in c)).map((c) => c.iso3).sort()).toEqual(['LBN', 'VEN']);
    expect(countries.find((c) => c.iso3 === 'USA')).toMatchObject({ raw_valuation_pct: 0, adjusted_valuation_pct: 0, dollar_exchange_rate: 1 });
  });

  it.each(BASES.flatMap((base) => ['USA', 'CHE', 'ARG'].map((iso3) => [iso3, base])))(
    'when the history of %s is asked against %s, then every release since 2000 equals the published columns',
    async (iso3, base) => {
      const res = await request(t.app).get('/v1/country').query({ country: iso3, base });
      expect(validateResponse(COUNTRY_ROUTE, res.status, res.body)).toEqual([]);
      const published = rows.filter((r) => r.iso_a3 === iso3).sort((a, b) => (a.date ?? '').localeCompare(b.date ?? ''));
      const history: (Valued & { date: string; local_price: number })[] = res.body.data.history;
      expect(history.map((h) => h.date)).toEqual(published.map((r) => r.date));
      expect(history[0]?.date.startsWith('2000')).toBe(true);
      expect(res.body.data.history_count).toBe(published.length);
      published.forEach((row, i) => {
        expect(history[i]?.local_price).toBe(Number(row.local_price));
        expectPublished(history[i] as Valued, row, base);
      });
    },
  );

  it('when base=chf, then every country is valued as dollar_price / Swiss dollar_price − 1, rounded as published', async () => {
    const res = await request(t.app).get('/v1/index').query({ base: 'chf' });
    const latest = rows.filter((r) => r.date === LATEST);
    const swiss = latest.find((r) => r.iso_a3 === 'CHE') as Record<string, string>;
    for (const row of latest) {
      const record = res.body.data.countries.find((c: { iso3: string }) => c.iso3 === row.iso_a3);
      const raw = Number(row.dollar_price) / Number(swiss.dollar_price) - 1;
      expect(record.raw_valuation_pct).toBeCloseTo(raw * 100, 3);
      if (row.adj_price === '') continue;
      const adjusted = Number(row.dollar_price) / Number(row.adj_price) / (Number(swiss.dollar_price) / Number(swiss.adj_price)) - 1;
      expect(record.adjusted_valuation_pct).toBeCloseTo(adjusted * 100, 3);
    }
  });

  it('when limit=25, then each side has 25 records of the 54, ordered as promised', async () => {
    const res = await request(t.app).get('/v1/extremes').query({ limit: 25 });
    expect(validateResponse(EXTREMES_ROUTE, res.status, res.body)).toEqual([]);
    const over: Valued[] = res.body.data.most_overvalued;
    const under: Valued[] = res.body.data.most_undervalued;
    expect(over).toHaveLength(25);
    expect(under).toHaveLength(25);
    expect(over.map((c) => c.raw_valuation_pct)).toEqual([...over.map((c) => c.raw_valuation_pct)].sort((a, b) => b - a));
    expect(under.map((c) => c.raw_valuation_pct)).toEqual([...under.map((c) => c.raw_valuation_pct)].sort((a, b) => a - b));
    expect(res.body.data.most_overvalued[0].iso3).toBe('CHE');
  });
});
