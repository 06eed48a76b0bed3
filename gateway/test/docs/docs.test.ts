import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import request from 'supertest';
import { createOpenApiDocument } from '@tollgate/envelope';
import { createServiceDocuments } from '../../src/data/service-documents';
import { createDocsRoutes } from '../../src/docs/docs-routes';
import { gatewayRouteDocs } from '../../src/gateway-route-docs';

// A service that documents one route and, like the real ones, wants the proxy secret.
async function startService(secret: string): Promise<{ url: string; asked: () => number; close: () => Promise<void> }> {
  let asked = 0;
  const app = express();
  app.get('/v1/openapi.json', (req, res) => {
    asked += 1;
    if (req.headers['x-tollgate-proxy-secret'] !== secret) {
      res.status(403).json({});
      return;
    }
    res.json(
      createOpenApiDocument({ title: 'burger', version: '1' }, [
        { method: 'get', path: '/v1/index', summary: 'Index', data: { type: 'object' }, message: 'Index retrieved successfully', errors: ['BAD_REQUEST'] },
      ]),
    );
  });
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    asked: () => asked,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

const SECRET = 'docs-proxy-secret-0123456789';

describe('GET /docs', () => {
  let service: Awaited<ReturnType<typeof startService>>;
  // Wants another secret: it answers 403, as a service configured apart from the gateway would.
  let refusing: Awaited<ReturnType<typeof startService>>;
  let now = 0;
  let app: express.Express;

  beforeAll(async () => {
    service = await startService(SECRET);
    refusing = await startService('another-proxy-secret-0123');
    app = express();
    app.use(
      createDocsRoutes({
        documents: createServiceDocuments({ upstreams: { burger: service.url, logs: refusing.url }, proxySecret: SECRET, clock: () => now, maxAgeMs: 1_000 }),
        keyHeader: 'x-tollgate-key',
        gatewayRoutes: gatewayRouteDocs(),
      }),
    );
  });
  afterAll(() => Promise.all([service.close(), refusing.close()]));

  it('when the reference is asked for, then every API appears under its prefix with the key header scheme and the gateway routes', async () => {
    const res = await request(app).get('/docs/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.1.0');
    expect(res.body.paths['/burger/v1/index'].get).toMatchObject({ tags: ['burger'], security: [{ apiKey: [] }] });
    // The admin API is the operators': it is at /admin/docs, behind the console's sign-in.
    expect(Object.keys(res.body.paths).filter((path) => path.startsWith('/admin'))).toEqual([]);
    expect(res.body.components.securitySchemes.adminToken).toBeUndefined();
    expect(res.body.paths['/dashboard/v1/signup'].post.tags).toEqual(['dashboard']);
    // The portal's routes: public ones need nothing; the rest a key or the session cookie (with CSRF on changes).
    expect(res.body.paths['/dashboard/v1/plans'].get.security).toEqual([]);
    expect(res.body.paths['/dashboard/v1/sign-in/verify'].post.security).toEqual([]);
    expect(res.body.paths['/dashboard/v1/keys/{id}/end-grace'].post.security).toEqual([{ apiKey: [] }, { portalSession: [] }]);
    expect(res.body.components.securitySchemes.portalSession).toMatchObject({ type: 'apiKey', in: 'cookie', name: 'tg_session' });
    expect(res.body.paths['/dashboard/v1/keys/{id}/roll'].post.parameters).toEqual([{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }]);
    expect(res.body.components.securitySchemes.apiKey).toEqual({ type: 'apiKey', in: 'header', name: 'x-tollgate-key' });
    expect(res.body.info.description).toMatch(/Not reachable while this reference was built: logs/);
  });

  it('when a service was unreachable, then the next visit asks it again, and not the others', async () => {
    const [before, refusedBefore] = [service.asked(), refusing.asked()];
    await request(app).get('/docs/openapi.json');
    expect(refusing.asked()).toBe(refusedBefore + 1);
    expect(service.asked()).toBe(before);
  });

  it('when every service answered, then the reference is reused until it is stale', async () => {
    const complete = express();
    complete.use(createDocsRoutes({ documents: createServiceDocuments({ upstreams: { burger: service.url }, proxySecret: SECRET, clock: () => now, maxAgeMs: 1_000 }), keyHeader: 'x-tollgate-key', gatewayRoutes: gatewayRouteDocs() }));
    const before = service.asked();
    await request(complete).get('/docs/openapi.json');
    now += 500;
    await request(complete).get('/docs/openapi.json');
    expect(service.asked()).toBe(before + 1);
    now += 1_000;
    await request(complete).get('/docs/openapi.json');
    expect(service.asked()).toBe(before + 2);
  });

  it('when the page is asked for, then Swagger UI is served from local assets', async () => {
    const page = await request(app).get('/docs');
    expect(page.status).toBe(200);
    expect(page.text).toContain('<script src="/docs/init.js"></script>');
    const init = await request(app).get('/docs/init.js');
    expect([init.status, init.headers['content-type']]).toEqual([200, expect.stringMatching(/javascript/)]);
    expect(init.text).toContain("url: '/docs/openapi.json'");
    const bundle = await request(app).get('/docs/assets/swagger-ui-bundle.js');
    expect(bundle.status).toBe(200);
    expect(bundle.headers['content-type']).toMatch(/javascript/);
  });

  it('when the reference is read, then its servers name the gateway: PUBLIC_URL when set, else the origin it was asked at', async () => {
    const asked = await request(app).get('/docs/openapi.json').set('host', 'api.example.test:8443');
    expect(asked.body.servers).toEqual([{ url: 'http://api.example.test:8443', description: 'This gateway' }]);
    const publicApp = express();
    publicApp.use(createDocsRoutes({ documents: createServiceDocuments({ upstreams: { burger: service.url }, proxySecret: SECRET, clock: () => now }), keyHeader: 'x-tollgate-key', gatewayRoutes: gatewayRouteDocs(), publicUrl: 'https://api.tollgate.example' }));
    const published = await request(publicApp).get('/docs/openapi.json').set('host', 'elsewhere.example');
    expect(published.body.servers).toEqual([{ url: 'https://api.tollgate.example', description: 'This gateway' }]);
  });
});
