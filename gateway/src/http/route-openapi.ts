import { createOpenApiDocument } from '@tollgate/envelope/core';
import type { RouteDoc } from '@tollgate/envelope/core';

/** An OpenAPI `paths` object. */
export type OpenApiPaths = Record<string, Record<string, unknown>>;

/**
 * The OpenAPI paths of some of the gateway's own routes, every operation tagged `tag` and needing
 * `security`. One document per section, so routes of one path listed in two tables end up under
 * that path together.
 */
export function routePaths(routes: readonly RouteDoc[], tag: string, security: Record<string, string[]>[]): OpenApiPaths {
  const doc = createOpenApiDocument({ title: tag, version: '1' }, [...routes]);
  for (const item of Object.values(doc.paths)) {
    for (const op of Object.values(item)) Object.assign(op as object, { tags: [tag], security });
  }
  return doc.paths;
}
