import express from 'express';
import request from 'supertest';
import { createRequestIdMiddleware, sendOk } from '@tollgate/envelope';
import { sendSerialized } from './send-serialized';

const data = { count: 2, name: 'Zürich “quoted”', list: [1.5, -0, null] };
const app = express();
app.use(createRequestIdMiddleware());
app.get('/ok', (_req, res) => sendOk(res, data, 'Index retrieved successfully'));
app.get('/serialized', (_req, res) => sendSerialized(res, Buffer.from(JSON.stringify(data)), 'Index retrieved successfully'));

describe('sendSerialized', () => {
  it.each(['get', 'head'] as const)('when answering %s, then status, headers and bytes match sendOk but for the timestamp', async (method) => {
    const [ok, serialized] = await Promise.all(
      ['/ok', '/serialized'].map((path) => request(app)[method](path).set('x-request-id', 'same-id').buffer(true).parse((res, done) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => done(null, body));
      })),
    );
    const stripTime = (body: unknown) => String(body ?? '').replace(/"timestamp":"[^"]+"/, '"timestamp":"T"');
    expect(serialized?.status).toBe(200);
    expect(serialized?.headers['content-type']).toBe(ok?.headers['content-type']);
    expect(serialized?.headers['content-length']).toBe(ok?.headers['content-length']);
    expect(stripTime(serialized?.body)).toBe(stripTime(ok?.body));
  });
});
