import type { OpenApiDocument } from '@tollgate/envelope';
import { mergeOpenApi } from './merge-openapi';

const burger: OpenApiDocument = {
  openapi: '3.1.0',
  info: { title: 'burger', version: '1', description: 'Big Mac index' },
  'x-plan-features': { columns: { charts: 'Charts' }, plans: [{ plan: 'free', charts: false }] },
  paths: {
    '/v1/index': { get: { operationId: 'getV1Index', summary: 'Index', responses: { '200': { description: 'ok' }, '400': { description: 'bad' } } } },
    '/v1/openapi.json': { get: { operationId: 'getOpenapi', responses: {} } },
    '/healthz': { get: { operationId: 'health', responses: {} } },
  },
};

describe('mergeOpenApi', () => {
  const merged = mergeOpenApi([{ api: 'burger', document: burger }, { api: 'logs', error: 'connect ECONNREFUSED' }], {
    title: 'Tollgate',
    version: '1.0.0',
    keyHeader: 'x-tollgate-key',
    gatewayPaths: { '/dashboard/v1/usage': { get: { summary: 'usage' } } },
  });
  const index = (merged.paths['/burger/v1/index'] as Record<string, Record<string, unknown>>).get!;

  it('when an API has a document, then its /v1 paths appear under /{api}, tagged and with prefixed ids', () => {
    expect(Object.keys(merged.paths).sort()).toEqual(['/burger/v1/index', '/dashboard/v1/usage']);
    expect(index).toMatchObject({ tags: ['burger'], operationId: 'burger_getV1Index', security: [{ apiKey: [] }] });
  });

  it("when a service describes itself and its plans' features, then its tag carries both; an unreachable one is just named", () => {
    expect(merged.tags).toEqual([
      { name: 'burger', description: 'Big Mac index', 'x-plan-features': { columns: { charts: 'Charts' }, plans: [{ plan: 'free', charts: false }] } },
      { name: 'logs' },
    ]);
  });

  it.each(['401', '402', '429', '502', '503', '504'])('when proxied, then the gateway answer %s is documented', (status) => {
    expect(index.responses).toHaveProperty(status);
  });

  it("when a service documents a status, then the service's own description wins", () => {
    expect((index.responses as Record<string, unknown>)['400']).toEqual({ description: 'bad' });
  });

  it('when the key header is configured, then it is the security scheme', () => {
    expect(merged.components).toMatchObject({ securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: 'x-tollgate-key' } } });
  });

  it('when an API could not be reached, then the description says so', () => {
    expect((merged.info as { description: string }).description).toMatch(/Not reachable .*logs \(connect ECONNREFUSED\)/);
  });
});
