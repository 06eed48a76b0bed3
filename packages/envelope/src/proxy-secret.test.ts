import express from 'express';
import request from 'supertest';
import { createErrorHandler } from './error-handler';
import { createProxySecretMiddleware } from './proxy-secret';
import { createRequestIdMiddleware } from './request-id';

const silent = { info: () => {}, warn: () => {}, error: () => {} };

function appWith(secret: string | undefined) {
  const app = express();
  app.use(createRequestIdMiddleware(), createProxySecretMiddleware(secret));
  app.get('/x', (_req, res) => {
    res.json({ reached: true });
  });
  app.use(createErrorHandler(silent));
  return app;
}

describe('proxy secret middleware', () => {
  it.each([
    ['no secret is configured and no header is sent', undefined, undefined, 200],
    ['the right secret is sent', 's3cret', 's3cret', 200],
    ['no header is sent', 's3cret', undefined, 403],
    ['a wrong secret is sent', 's3cret', 'nope', 403],
    ['a longer secret with the right prefix is sent', 's3cret', 's3cret-and-more', 403],
  ])('when %s, then the status is as expected', async (_case, secret, header, status) => {
    const req = request(appWith(secret)).get('/x');
    const res = await (header === undefined ? req : req.set('x-tollgate-proxy-secret', header));
    expect(res.status).toBe(status);
    if (status === 403) {
      expect(res.body).toMatchObject({ success: false, error: { code: 'FORBIDDEN' } });
      expect(res.body.message).toMatch(/proxy secret/);
    }
  });
});
