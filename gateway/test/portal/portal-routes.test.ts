import express from 'express';
import fc from 'fast-check';
import request from 'supertest';
import { createErrorHandler, createLogger, createNotFoundHandler, createRequestIdMiddleware } from '@tollgate/envelope';
import { PAGE_CSP } from '../../src/http/page-headers';
import { PORTAL_PAGES } from '../../src/portal/portal-pages';
import { createPortalRoutes } from '../../src/portal/portal-routes';

// The portal router as app.ts mounts it: request ids, the router, then the one 404 and error handler.
function portalApp() {
  const app = express();
  app.use(createRequestIdMiddleware(), createPortalRoutes({ keyHeader: 'x-tollgate-key', apis: () => ['burger', 'token', 'logs'] }));
  app.use(createNotFoundHandler(), createErrorHandler(createLogger({ service: 'test', level: 'silent' })));
  return app;
}

describe('portal routes (no browser)', () => {
  const app = portalApp();

  test('when a page is asked for, then it is the shell naming the page, the key header and the view to load', async () => {
    for (const page of PORTAL_PAGES) {
      const res = await request(app).get(page.path).expect(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.headers['content-security-policy']).toBe(PAGE_CSP);
      expect(res.text).toContain(`<body data-page="${page.id}"`);
      expect(res.text).toContain(`<title>${page.title} · Tollgate developer portal</title>`);
      expect(res.text).toContain('<meta name="tollgate-key-header" content="x-tollgate-key">');
      expect(res.text).toContain(`/portal/assets/js/views/${page.id}.js`);
      // Nothing inline for the CSP to refuse.
      expect(res.text).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>|<style|\sstyle=/);
    }
    await request(app).get('/portal/keys/').expect(200);
  });

  test("when an API's reference page is asked for, then it is its shell; an API the gateway does not serve is the 404 page", async () => {
    for (const api of ['burger', 'token', 'logs']) {
      const res = await request(app).get(`/portal/apis/${api}`).expect(200);
      expect(res.text).toContain('<body data-page="api-reference"');
      expect(res.text).toContain(`api-reference /portal/apis/${api}`);
      expect(res.text).toContain('/portal/assets/js/views/api-reference.js');
      expect(res.headers['content-security-policy']).toBe(PAGE_CSP);
      expect(res.text).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>|<style|\sstyle=/);
    }
    expect((await request(app).get('/portal/apis/weather').expect(404)).text).toContain('<body data-page="not-found"');
    await request(app).get('/portal/apis').expect(404);
  });

  test('when an unknown page, a missing asset or a path trying to leave the assets is asked for, then the answer is a 4xx, never a file outside portal/', async () => {
    const notFound = await request(app).get('/portal/nowhere').expect(404);
    expect(notFound.text).toContain('<body data-page="not-found"');
    for (const path of ['/portal/assets/nope.js', '/portal/assets/%2e%2e/%2e%2e/package.json', '/portal/assets/..%2f..%2fpackage.json', '/portal/vendor/uplot/%2e%2e/package.json', '/portal/assets/js']) {
      const res = await request(app).get(path);
      expect([path, res.status, res.body.error?.code]).toEqual([path, 404, 'NOT_FOUND']);
    }
    await request(app).get('/portal/assets/%ZZ').expect(400);
  });

  test('when any path under /portal is asked for, then the answer is never a 5xx and always carries the security headers', async () => {
    const segment = fc.oneof(fc.constantFrom('assets', 'vendor', 'uplot', 'js', 'views', '..', '%2e%2e', '%2f', '%00', '%ZZ', 'portal.css', 'app.js', ''), fc.webSegment());
    await fc.assert(
      fc.asyncProperty(fc.array(segment, { maxLength: 5 }), async (segments) => {
        const res = await request(app).get(`/portal/${segments.join('/')}`);
        expect(res.status).toBeLessThan(500);
        expect(res.headers['x-frame-options']).toBe('DENY');
      }),
      { numRuns: 200 },
    );
  });

  test('when / or /portal is asked for, then it redirects to /portal/', async () => {
    expect((await request(app).get('/').expect(302)).headers.location).toBe('/portal/');
    expect((await request(app).get('/portal').expect(301)).headers.location).toBe('/portal/');
  });
});
