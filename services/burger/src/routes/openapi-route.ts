import type { RequestHandler } from 'express';
import { createOpenApiDocument } from '@tollgate/envelope';
import type { RouteDoc } from '@tollgate/envelope';

/** GET /v1/openapi.json: the OpenAPI document itself, unwrapped, so tools can read it directly. */
export const OPENAPI_PATH = '/v1/openapi.json';

/** Serves the OpenAPI 3.1 document generated from the same route descriptions that validate requests. */
export function createOpenApiHandler(routes: readonly RouteDoc[]): RequestHandler {
  const document = createOpenApiDocument(
    {
      title: 'Tollgate Burger API',
      version: '1.0.0',
      description: 'The Economist Big Mac index: currency over- and under-valuation against a base currency.',
    },
    routes,
  );
  const body = JSON.stringify(document);
  return (_req, res) => {
    res.type('application/json').send(body);
  };
}
