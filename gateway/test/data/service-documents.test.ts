import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createServiceDocuments } from '../../src/data/service-documents';
import { useCloseAfterEach } from '../support/close-after-each';
import { catalogueOf } from '../support/catalogue-of';

const closeAfterEach = useCloseAfterEach();

// A service answering its document with `answer` and counting the asks; closed after the test, pass or fail.
async function startService(answer: { status: number; body: unknown }): Promise<{ url: string; asked: () => number; close: () => Promise<void> }> {
  let asked = 0;
  const server = http.createServer((_req, res) => {
    asked += 1;
    res.writeHead(answer.status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(answer.body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const service = { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, asked: () => asked, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
  return closeAfterEach(service, (s) => s.close());
}

describe('createServiceDocuments().hasRoute', () => {
  it('when the service documents its routes, then documented paths pass and others do not', async () => {
    const service = await startService({ status: 200, body: { openapi: '3.1.0', paths: { '/v1/prices': {} } } });
    const docs = createServiceDocuments({ catalogue: catalogueOf({ token: service.url }), clock: () => 0 });
    expect(docs.hasRoute('token', '/v1/prices')).toBeUndefined();
    await docs.idle();
    expect([docs.hasRoute('token', '/v1/prices'), docs.hasRoute('token', '/v1/other')]).toEqual([true, false]);
  });

  it('when the service answers without a document, then paths are not judged and it is asked again only after the maximum age', async () => {
    let now = 0;
    const service = await startService({ status: 404, body: { error: 'no' } });
    const docs = createServiceDocuments({ catalogue: catalogueOf({ token: service.url }), clock: () => now, maxAgeMs: 60_000, retryMs: 5_000 });
    docs.hasRoute('token', '/v1/prices');
    await docs.idle();
    now += 10_000;
    expect(docs.hasRoute('token', '/v1/prices')).toBeUndefined();
    await docs.idle();
    expect(service.asked()).toBe(1);
    now += 60_000;
    docs.hasRoute('token', '/v1/prices');
    await docs.idle();
    expect(service.asked()).toBe(2);
  });

  it('when the service is unreachable, then it is asked again after the retry time, and the last good document is kept meanwhile', async () => {
    let now = 0;
    const service = await startService({ status: 200, body: { openapi: '3.1.0', paths: { '/v1/prices': {} } } });
    const docs = createServiceDocuments({ catalogue: catalogueOf({ token: service.url }), clock: () => now, maxAgeMs: 60_000, retryMs: 5_000 });
    docs.hasRoute('token', '/v1/prices');
    await docs.idle();
    await service.close();
    now += 61_000;
    expect(docs.hasRoute('token', '/v1/other')).toBe(false);
    await docs.idle();
    expect(docs.hasRoute('token', '/v1/prices')).toBe(true);
  });
});
