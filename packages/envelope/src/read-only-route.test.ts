import express from 'express';
import request from 'supertest';
import { createErrorHandler, createNotFoundHandler } from './error-handler';
import { readOnlyRoute } from './read-only-route';
import { createRequestIdMiddleware } from './request-id';

function app() {
  const a = express();
  a.use(createRequestIdMiddleware(() => 'rid-1'));
  readOnlyRoute(a, '/v1/things', (_req, res) => {
    res.json({ ok: true });
  });
  a.use(createNotFoundHandler());
  a.use(createErrorHandler({ info: () => {}, warn: () => {}, error: () => {} }));
  return a;
}

describe('readOnlyRoute', () => {
  it.each(['post', 'put', 'patch', 'delete', 'options'] as const)('when %s reaches the route, then 405 with Allow: GET, HEAD', async (method) => {
    const res = await request(app())[method]('/v1/things');
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('GET, HEAD');
    expect(res.body).toMatchObject({ status: 'error', success: false, error: { code: 'METHOD_NOT_ALLOWED' } });
  });

  it.each(['/v1/things', '/V1/THINGS', '/v1/things/'])('when GET or HEAD reach %s, then the handler answers', async (path) => {
    expect((await request(app()).get(path)).status).toBe(200);
    expect((await request(app()).head(path)).status).toBe(200);
  });

  it('when another method reaches an unknown path, then it stays 404', async () => {
    const res = await request(app()).post('/v1/other');
    expect(res.status).toBe(404);
    expect(res.headers.allow).toBeUndefined();
  });
});
