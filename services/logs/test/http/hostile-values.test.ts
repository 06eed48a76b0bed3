import request from 'supertest';
import { buildLogsApp } from '../support/logs-app.js';

// Every chain on a closed port: each of these answers before any RPC call.
const { app } = buildLogsApp({ rpcUrls: {} });
const TOKEN = '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48';

describe('logs: non-finite numbers, inherited names and other methods', () => {
  it.each([
    ['/v1/logs', { limit: '-Infinity' }, 'limit'],
    ['/v1/logs', { limit: 'Infinity' }, 'limit'],
    ['/v1/logs', { limit: '1e309' }, 'limit'],
    ['/v1/transfers', { token: TOKEN, limit: '-1e309' }, 'limit'],
  ])('when %s gets %j, then 400 names %s', async (path, query, parameter) => {
    const res = await request(app).get(path).query({ chain: 'ethereum', ...query });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'BAD_REQUEST', details: { parameter } });
  });

  it.each(['constructor', '__proto__', 'toString', 'hasOwnProperty'])('when chain=%s, then 400 lists the chains', async (chain) => {
    const res = await request(app).get('/v1/logs').query({ chain });
    expect(res.status).toBe(400);
    expect(res.body.error.details).toMatchObject({ parameter: 'chain' });
  });

  it.each(['constructor', '__proto__', 'toString', 'hasOwnProperty'])('when the plan header is %s, then the free plan applies: no topic filtering', async (plan) => {
    const res = await request(app).get('/v1/logs').query({ chain: 'ethereum', event: 'Transfer' }).set('x-tollgate-subscription', plan);
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('FORBIDDEN');
  });

  it.each([
    ['post', '/v1/logs'],
    ['put', '/v1/transfers'],
    ['delete', '/v1/chains'],
    ['options', '/v1/meta'],
    ['patch', '/healthz'],
  ] as const)('when %s reaches %s, then 405 with Allow: GET, HEAD', async (method, path) => {
    const res = await request(app)[method](path);
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('GET, HEAD');
    expect(res.body.error.code).toBe('METHOD_NOT_ALLOWED');
  });

  it('when another method reaches an unknown path, then it stays 404', async () => {
    expect((await request(app).post('/v1/nothing')).status).toBe(404);
  });
});
