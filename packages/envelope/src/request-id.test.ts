import express from 'express';
import request from 'supertest';
import { createRequestIdMiddleware } from './request-id';

function app() {
  const a = express();
  a.use(createRequestIdMiddleware(() => 'generated-id'));
  a.get('/', (_req, res) => {
    res.json({ id: res.locals.requestId });
  });
  return a;
}

describe('request id middleware', () => {
  it.each([
    ['no id is sent', undefined, 'generated-id'],
    ['a well-formed id is sent', 'abc-123', 'abc-123'],
    ['an id with unsafe characters is sent', 'bad id\twith space', 'generated-id'],
    ['an over-long id is sent', 'x'.repeat(200), 'generated-id'],
  ])('when %s, then that id is used and echoed', async (_case, sent, expected) => {
    const req = request(app()).get('/');
    const res = await (sent === undefined ? req : req.set('x-request-id', sent));
    expect(res.body.id).toBe(expected);
    expect(res.headers['x-request-id']).toBe(expected);
  });
});
