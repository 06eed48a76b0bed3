import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import request from 'supertest';
import { validateResponse } from '@tollgate/envelope';
import { INDEX_ROUTE } from '../../src/routes/index-route';
import { createTestApp } from '../support/burger-app';
import type { TestApp, TestAppOptions } from '../support/burger-app';
import { startCsvUpstream } from '../support/csv-upstream';
import type { CsvUpstream } from '../support/csv-upstream';
import { fixtureText } from '../support/fixtures';

const TTL = 600_000;
const RETRY = 30_000;
const upstreams: CsvUpstream[] = [];

async function setUp(options: Partial<TestAppOptions> = {}): Promise<{ upstream: CsvUpstream; t: TestApp }> {
  const upstream = await startCsvUpstream(fixtureText('small-index.csv'));
  upstreams.push(upstream);
  return { upstream, t: createTestApp({ dataUrl: upstream.url, ttlMs: TTL, retryMs: RETRY, timeoutMs: 8_000, ...options }) };
}
afterEach(async () => {
  await Promise.all(upstreams.splice(0).map((u) => u.close()));
});

const index = async (t: TestApp) => {
  const res = await request(t.app).get('/v1/index');
  expect(validateResponse(INDEX_ROUTE, res.status, res.body)).toEqual([]);
  return res;
};
const meta = async (t: TestApp) => (await request(t.app).get('/v1/meta')).body.data;

describe('before the first load', () => {
  it('when the upstream answers 503, then 502 UPSTREAM_UNAVAILABLE says why, and /readyz is not ready', async () => {
    const { upstream, t } = await setUp();
    upstream.setMode('error-503');
    const res = await index(t);
    expect(res.status).toBe(502);
    expect(res.body.error.code).toBe('UPSTREAM_UNAVAILABLE');
    expect(res.body.message).toBe('the Big Mac dataset is not available yet: upstream answered HTTP 503');
    const ready = await request(t.app).get('/readyz');
    expect(ready.status).toBe(503);
    expect(ready.body.message).toMatch(/not loaded yet: upstream answered HTTP 503/);
  });

  it('when the upstream is unreachable, then 502 names the connection error', async () => {
    const { upstream, t } = await setUp();
    await upstream.close();
    const res = await index(t);
    expect(res.status).toBe(502);
    expect(res.body.message).toMatch(/upstream request failed \(ECONNREFUSED\)/);
  });

  it('when the upstream never answers, then the request ends with 502 after the upstream timeout', async () => {
    const { upstream, t } = await setUp({ timeoutMs: 200 });
    upstream.setMode('hang');
    const res = await index(t);
    expect(res.status).toBe(502);
    expect(res.body.message).toMatch(/upstream did not answer within 200 ms/);
  });

  it('when the first download is malformed, then 502 says so and no copy is served', async () => {
    const { upstream, t } = await setUp();
    upstream.setBody(fixtureText('short-row.csv'));
    const res = await index(t);
    expect(res.status).toBe(502);
    expect(res.body.message).toMatch(/not valid CSV/);
  });

  it('when a load failed, then calls within the retry delay fail fast without asking the upstream again', async () => {
    const { upstream, t } = await setUp();
    upstream.setMode('error-503');
    expect((await index(t)).status).toBe(502);
    expect((await index(t)).status).toBe(502);
    expect(upstream.requests).toHaveLength(1);
    upstream.setMode('ok');
    t.advance(RETRY);
    expect((await index(t)).status).toBe(200);
    expect(upstream.requests).toHaveLength(2);
  });

  it('when many calls arrive together, then they share one download', async () => {
    const { upstream, t } = await setUp();
    const answers = await Promise.all(Array.from({ length: 5 }, () => index(t)));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    expect(upstream.requests).toHaveLength(1);
  });
});

describe('after a first load', () => {
  async function loaded(options: Partial<TestAppOptions> = {}) {
    const setup = await setUp(options);
    expect((await index(setup.t)).status).toBe(200);
    return setup;
  }

  it('when the TTL has not passed, then the upstream is not asked again', async () => {
    const { upstream, t } = await loaded();
    t.advance(TTL - 1);
    await index(t);
    await t.store.settled();
    expect(upstream.requests).toHaveLength(1);
  });

  it('when the TTL has passed and nothing changed, then a conditional GET gets 304 and the copy is kept', async () => {
    const { upstream, t } = await loaded();
    const before = t.store.status().snapshot;
    t.advance(TTL);
    expect((await index(t)).status).toBe(200);
    await t.store.settled();
    expect(upstream.requests).toHaveLength(2);
    expect(upstream.requests[0]?.['if-none-match']).toBeUndefined();
    expect(upstream.requests[1]).toMatchObject({ 'if-none-match': '"v1"', 'if-modified-since': 'Thu, 01 Jan 2026 00:00:00 GMT' });
    expect(t.store.status().snapshot).toBe(before);
    expect((await meta(t)).upstream_status).toBe('ok');
  });

  it('when the upstream sends no validators and the same bytes again, then the copy (and its cache) is kept', async () => {
    const { upstream, t } = await loaded();
    upstream.setMode('no-validators');
    const before = t.store.status().snapshot;
    t.advance(TTL);
    await index(t);
    await t.store.settled();
    expect(upstream.requests).toHaveLength(2);
    expect(t.store.status().snapshot).toBe(before);
    upstream.setBody(fixtureText('new-release.csv'));
    t.advance(TTL);
    await index(t);
    await t.store.settled();
    expect(t.store.status().snapshot?.dataset.latestRelease).toBe('2026-07-01');
  });

  it('when the upstream has a new release, then the new copy replaces the old and cached answers go with it', async () => {
    const { upstream, t } = await loaded();
    upstream.setBody(fixtureText('new-release.csv'));
    t.advance(TTL);
    expect((await index(t)).body.data.release_date).toBe('2026-01-01');
    await t.store.settled();
    const res = await index(t);
    expect(res.body.data).toMatchObject({ release_date: '2026-07-01', count: 3 });
    expect((await meta(t)).latest_release).toBe('2026-07-01');
  });

  // Only the hang case waits out the timeout, so only it gets a short one. Every row has all four
  // values: jest reads a test function with more parameters than its row as one that takes `done`.
  it.each<[string, (u: CsvUpstream) => void, string, Partial<TestAppOptions>]>([
    ['answers 503', (u: CsvUpstream) => u.setMode('error-503'), 'upstream answered HTTP 503', {}],
    ['never answers', (u: CsvUpstream) => u.setMode('hang'), 'upstream did not answer within 300 ms', { timeoutMs: 300 }],
    ['drops the connection mid-body', (u: CsvUpstream) => { u.setBody(fixtureText('new-release.csv')); u.setMode('cut-body'); }, 'upstream request failed', {}],
    ['is gone', (u: CsvUpstream) => void u.close(), 'upstream request failed (ECONNREFUSED)', {}],
    ['serves a truncated file', (u: CsvUpstream) => u.setBody(fixtureText('truncated-mid-row.csv')), 'does not end with a line break', {}],
    ['serves an HTML page', (u: CsvUpstream) => u.setBody(fixtureText('html-instead-of-csv.csv')), 'missing columns', {}],
    ['serves a file with a bad number', (u: CsvUpstream) => u.setBody(fixtureText('not-a-number.csv')), "dollar_price is not a number ('NA')", {}],
  ])('when the upstream %s, then the last good copy is served and meta reports it stale', async (_case, breakIt, reason, options) => {
    const { upstream, t } = await loaded(options);
    breakIt(upstream);
    t.advance(TTL);
    expect((await index(t)).status).toBe(200);
    await t.store.settled();

    const res = await index(t);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ count: 11, release_date: '2026-01-01' });
    const data = await meta(t);
    expect(data.upstream_status).toBe('stale');
    expect(data.upstream_error).toContain(reason);
    const ready = await request(t.app).get('/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body.data.upstream_status).toBe('stale');
  });

  it('when the upstream recovers, then after the retry delay meta is ok again', async () => {
    const { upstream, t } = await loaded();
    upstream.setMode('error-503');
    t.advance(TTL);
    await index(t);
    await t.store.settled();
    expect((await meta(t)).upstream_status).toBe('stale');
    upstream.setMode('ok');
    t.advance(RETRY);
    await index(t);
    await t.store.settled();
    const data = await meta(t);
    expect(data.upstream_status).toBe('ok');
    expect(data).not.toHaveProperty('upstream_error');
  });
});

describe('a local file as the source', () => {
  const path = join(__dirname, '..', 'fixtures', 'small-index.csv');

  it.each([
    ['a path', path],
    ['a file: URL', pathToFileURL(path).href],
  ])('when BURGER_DATA_URL is %s, then the file is served', async (_case, dataUrl) => {
    const t = createTestApp({ dataUrl });
    const res = await index(t);
    expect(res.status).toBe(200);
    expect(res.body.data.count).toBe(11);
  });

  it('when the file is unchanged after the TTL, then the copy is kept', async () => {
    const t = createTestApp({ dataUrl: path, ttlMs: TTL });
    await index(t);
    const before = t.store.status().snapshot;
    t.advance(TTL);
    await index(t);
    await t.store.settled();
    expect(t.store.status().snapshot).toBe(before);
  });

  it('when the file does not exist, then 502 names it', async () => {
    const t = createTestApp({ dataUrl: join(__dirname, 'missing.csv') });
    const res = await index(t);
    expect(res.status).toBe(502);
    expect(res.body.message).toMatch(/cannot read .*missing\.csv \(ENOENT\)/);
  });
});
