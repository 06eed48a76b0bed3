import { createOpenApiDocument } from './openapi';
import type { RouteDoc } from './route-doc';
import { validateResponse } from './validate-response';
import { errorEnvelope, okEnvelope } from './envelope';

const route: RouteDoc = {
  method: 'get',
  path: '/v1/things',
  summary: 'List things',
  query: {
    type: 'object',
    required: ['kind'],
    properties: {
      kind: { type: 'string', enum: ['a', 'b'], description: 'which kind' },
      limit: { type: 'integer', minimum: 1, maximum: 5, default: 2 },
    },
  },
  data: {
    type: 'object',
    required: ['count'],
    additionalProperties: false,
    properties: { count: { type: 'integer' } },
  },
  message: 'Things retrieved successfully',
  errors: ['BAD_REQUEST', 'RATE_LIMITED', 'QUOTA_EXCEEDED'],
};

describe('createOpenApiDocument', () => {
  const doc = createOpenApiDocument({ title: 'Things', version: '1.0.0' }, [route]);
  const op = (doc.paths['/v1/things'] as Record<string, Record<string, unknown>>).get!;

  it('when a route has a query schema, then each property becomes a query parameter', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(op.parameters).toEqual([
      { name: 'kind', in: 'query', required: true, description: 'which kind', schema: route.query!.properties.kind },
      { name: 'limit', in: 'query', required: false, schema: route.query!.properties.limit },
    ]);
  });

  it('when a path has {name} segments, then they become required path parameters', () => {
    const withId = createOpenApiDocument({ title: 'T', version: '1' }, [{ ...route, path: '/v1/things/{id}', query: undefined }]);
    const get = (withId.paths['/v1/things/{id}'] as Record<string, Record<string, unknown>>).get!;
    expect(get.parameters).toEqual([{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }]);
  });

  it('when a route has an example answer, then its data schema carries it (the reference pages show it); without one, none', () => {
    const dataOf = (document: ReturnType<typeof createOpenApiDocument>) => {
      const get = (document.paths['/v1/things'] as Record<string, { responses: Record<string, { content: Record<string, { schema: { properties: { data: unknown } } }> }> }>).get!;
      return get.responses['200']!.content['application/json']!.schema.properties.data;
    };
    expect(dataOf(createOpenApiDocument({ title: 'T', version: '1' }, [{ ...route, example: { count: 7 } }]))).toEqual({ ...route.data, example: { count: 7 } });
    expect(dataOf(doc)).toEqual(route.data);
  });

  it('when two codes share a status, then they share one response', () => {
    const responses = op.responses as Record<string, { description: string }>;
    expect(Object.keys(responses).sort()).toEqual(['200', '400', '429']);
    expect(responses['429']!.description).toBe('RATE_LIMITED or QUOTA_EXCEEDED');
  });
});

describe('validateResponse', () => {
  it('when the body is as documented, then there is no mismatch', () => {
    expect(validateResponse(route, 200, okEnvelope({ count: 2 }, 'Things retrieved successfully', 'r'))).toEqual([]);
    expect(validateResponse(route, 400, errorEnvelope('BAD_REQUEST', 'kind is required', 'r'))).toEqual([]);
  });

  it('when a route documents no errors, then any error answer is reported as undocumented', () => {
    const quiet = { ...route, errors: [] };
    expect(validateResponse(quiet, 500, errorEnvelope('INTERNAL', 'x', 'r'))).toEqual(['status 500 is not documented for GET /v1/things']);
  });

  it.each([
    ['a field has the wrong type', 200, okEnvelope({ count: 'two' }, 'Things retrieved successfully', 'r'), '/data/count must be integer'],
    ['an undocumented field appears', 200, okEnvelope({ count: 1, extra: true }, 'Things retrieved successfully', 'r'), '/data must NOT have additional properties'],
    ['the message differs', 200, okEnvelope({ count: 1 }, 'Other', 'r'), '/message must be equal to constant'],
    ['the error code is not the route\'s', 400, errorEnvelope('NOT_FOUND', 'x', 'r'), '/error/code must be equal to one of the allowed values'],
    ['the status is not documented', 502, errorEnvelope('UPSTREAM_UNAVAILABLE', 'x', 'r'), 'status 502 is not documented for GET /v1/things'],
  ])('when %s, then the mismatch is reported', (_case, status, body, problem) => {
    expect(validateResponse(route, status, body)).toContain(problem);
  });
});
