// Where an API's endpoints are in the merged OpenAPI document and on its reference page: small, so
// the pages that only list or link endpoints (catalogue, Try it) load nothing more.

/** The GET operations of one API in the merged OpenAPI document: [{ path, summary, operation }]. */
export function endpointsOf(doc, api) {
  const prefix = `/${api}/v1/`;
  return Object.entries(doc?.paths ?? {})
    .filter(([path, item]) => path.startsWith(prefix) && item.get)
    .map(([path, item]) => ({ path, summary: item.get.summary ?? '', operation: item.get }));
}

/** The fragment naming an endpoint on its API's page: `get-v1-transfers` for GET /logs/v1/transfers. */
export function anchorOf(api, path) {
  return `get-${path.slice(api.length + 1).replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, '').toLowerCase()}`;
}

/** Where an API's reference page is (an endpoint's anchor added when given). */
export const referenceHref = (api, path) => `/portal/apis/${encodeURIComponent(api)}${path ? `#${anchorOf(api, path)}` : ''}`;

/** The tag of `api` in the merged document (its description and `x-plan-features`), if any. */
export const tagOf = (doc, api) => (doc?.tags ?? []).find((t) => t.name === api);
