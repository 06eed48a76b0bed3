import { ROUTES } from '../../src/app';
import { loadConfig } from '../../src/config';
import { SOURCE, describeSource } from '../../src/domain/source';
import { COUNTRY_ROUTE } from '../../src/routes/country-route';
import { EXTREMES_ROUTE } from '../../src/routes/extremes-route';
import { INDEX_ROUTE } from '../../src/routes/index-route';
import { META_ROUTE } from '../../src/routes/meta-route';
import { getChecked, useFixtureApp } from '../support/burger-app';

// The offline demo reads the repository's copy of the dataset: its answers must say so.
const LABEL = 'snapshot: the copy in services/burger/dataset (commit 669a971), not the live file';
const labelled = useFixtureApp('small-index.csv', { source: describeSource(loadConfig({ BURGER_SOURCE_LABEL: LABEL }).sourceLabel) });
const plain = useFixtureApp('small-index.csv');

const calls = [
  [INDEX_ROUTE, '?base=eur'],
  [COUNTRY_ROUTE, '?country=japan'],
  [EXTREMES_ROUTE, '?limit=2'],
  [META_ROUTE, ''],
] as const;

describe('BURGER_SOURCE_LABEL', () => {
  it('when calls cover every data route, then the table below names each one', () => {
    expect(calls.map(([route]) => route.path).sort()).toEqual(ROUTES.filter((r) => !/z$/.test(r.path)).map((r) => r.path).sort());
  });

  it.each(calls)('when it is set, then %s says in `source` what the copy is, after the dataset’s name', async (route, query) => {
    const res = await getChecked(labelled().app, route, query);
    expect(res.status).toBe(200);
    expect(res.body.data.source).toBe(`${SOURCE}; ${LABEL}`);
  });

  it.each(calls)('when it is unset, then %s names the dataset alone', async (route, query) => {
    const res = await getChecked(plain().app, route, query);
    expect(res.status).toBe(200);
    expect(res.body.data.source).toBe(SOURCE);
  });
});
