import express from 'express';
import request from 'supertest';
import { AppError } from './app-error';
import { createErrorHandler, createNotFoundHandler } from './error-handler';
import { createRequestIdMiddleware } from './request-id';

function appWithLog() {
  const logged: unknown[] = [];
  const logger = { info: () => {}, warn: () => {}, error: (obj: object) => logged.push(obj) };
  const app = express();
  app.use(createRequestIdMiddleware(() => 'rid-1'));
  app.use(express.json({ limit: 100 }));
  app.get('/app-error', () => {
    throw new AppError('RATE_LIMITED', 'too fast', { details: { limit: 3 }, headers: { 'Retry-After': '1' } });
  });
  app.get('/boom', () => {
    throw new Error('database password is hunter2');
  });
  app.get('/async-boom', async () => {
    throw new TypeError('async failure');
  });
  app.get('/upstream-down', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED', address: '127.0.0.1', port: 9 });
    throw new AppError('UPSTREAM_UNAVAILABLE', 'the indexer could not be reached', { cause: refused });
  });
  // An SDK's error for a 4xx it was answered (stripe-node's StripeInvalidRequestError): the status is
  // the provider's answer to the server, not the client's mistake, and its message is not for them.
  app.get('/provider-400', () => {
    throw Object.assign(new Error("No such customer: 'cus_Gone0123456789'"), { type: 'StripeInvalidRequestError', statusCode: 400, code: 'resource_missing' });
  });
  app.get('/param/:id', (req, res) => {
    res.json({ id: req.params.id });
  });
  app.post('/echo', (req, res) => {
    res.json(req.body);
  });
  app.use(createNotFoundHandler());
  app.use(createErrorHandler(logger));
  return { app, logged };
}

describe('error handler', () => {
  it('when a handler throws an AppError, then its status, code, details and headers are sent', async () => {
    const res = await request(appWithLog().app).get('/app-error');
    expect(res.status).toBe(429);
    expect(res.headers['retry-after']).toBe('1');
    expect(res.body).toEqual({
      data: null,
      meta: { timestamp: expect.any(String), request_id: 'rid-1' },
      status: 'error',
      message: 'too fast',
      success: false,
      error: { code: 'RATE_LIMITED', details: { limit: 3 } },
    });
  });

  it.each(['/boom', '/async-boom'])('when %s throws an unknown error, then 500 INTERNAL is sent, the cause logged, never leaked', async (path) => {
    const { app, logged } = appWithLog();
    const res = await request(app).get(path);
    expect(res.status).toBe(500);
    expect(res.body.error).toEqual({ code: 'INTERNAL' });
    expect(JSON.stringify(res.body)).not.toMatch(/hunter2|async failure/);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ code: 'INTERNAL', request_id: 'rid-1' });
  });

  it("when a library error carries a 4xx status it was answered, not one it may show (a provider SDK's), then 500 INTERNAL, its message logged and never sent", async () => {
    const { app, logged } = appWithLog();
    const res = await request(app).get('/provider-400');
    expect(res.status).toBe(500);
    expect(res.body.error).toEqual({ code: 'INTERNAL' });
    expect(JSON.stringify(res.body)).not.toMatch(/customer|cus_/);
    expect(logged).toEqual([expect.objectContaining({ code: 'INTERNAL', err: expect.objectContaining({ message: "No such customer: 'cus_Gone0123456789'" }) })]);
  });

  it('when an upstream failure is thrown, then one log entry carries the cause summarised, without a stack', async () => {
    const { app, logged } = appWithLog();
    const res = await request(app).get('/upstream-down');
    expect(res.status).toBe(502);
    expect(logged).toEqual([
      {
        code: 'UPSTREAM_UNAVAILABLE',
        request_id: 'rid-1',
        cause: { message: 'connect ECONNREFUSED 127.0.0.1:9', code: 'ECONNREFUSED', host: '127.0.0.1:9' },
      },
    ]);
    expect(JSON.stringify(logged)).not.toMatch(/\bat |stack/);
  });

  it('when a body is not valid JSON, then 400 BAD_REQUEST says so', async () => {
    const res = await request(appWithLog().app).post('/echo').set('content-type', 'application/json').send('{"a":');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: { code: 'BAD_REQUEST' }, message: 'request body is not valid JSON' });
  });

  it('when a body is over the limit, then 400 BAD_REQUEST names the limit', async () => {
    const res = await request(appWithLog().app).post('/echo').send({ a: 'x'.repeat(500) });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/100 byte limit/);
  });

  it('when a path parameter cannot be decoded, then 400 BAD_REQUEST says which (the router marks its URIError 400)', async () => {
    const res = await request(appWithLog().app).get('/param/%ZZ');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: { code: 'BAD_REQUEST' }, message: "Failed to decode param '%ZZ'" });
  });

  it('when no route matches, then 404 NOT_FOUND names the method and path', async () => {
    const res = await request(appWithLog().app).get('/nowhere');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ error: { code: 'NOT_FOUND' }, message: 'no route for GET /nowhere' });
  });
});
