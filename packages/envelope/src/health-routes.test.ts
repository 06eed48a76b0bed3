import express from 'express';
import request from 'supertest';
import { createErrorHandler } from './error-handler';
import { createHealthRoutes } from './health-routes';
import type { Readiness } from './health-routes';
import { createRequestIdMiddleware } from './request-id';

const silent = { info: () => {}, warn: () => {}, error: () => {} };

function app(state: Readiness) {
  const a = express();
  a.use(createRequestIdMiddleware(), createHealthRoutes(async () => state), createErrorHandler(silent));
  return a;
}

describe('health routes', () => {
  it('when alive, then /healthz answers 200', async () => {
    const res = await request(app({ ready: false })).get('/healthz');
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ status: 'alive' });
  });

  it('when ready, then /readyz answers 200 with the details', async () => {
    const res = await request(app({ ready: true, details: { dataset: 'loaded' } })).get('/readyz');
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ status: 'ready', dataset: 'loaded' });
  });

  it('when not ready, then /readyz answers 503 NOT_READY with the reason', async () => {
    const res = await request(app({ ready: false, reason: 'dataset not loaded yet' })).get('/readyz');
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ message: 'dataset not loaded yet', error: { code: 'NOT_READY' } });
  });
});
