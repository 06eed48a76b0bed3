import { HEALTHZ_ROUTE, createReadyzRoute } from '@tollgate/envelope';

/** `GET /healthz`, served by the envelope's health routes. */
export const healthzRoute = HEALTHZ_ROUTE;

/** `GET /readyz`: ready once the indexer's chain list is held. */
export const readyzRoute = createReadyzRoute("Readiness: the indexer's chain list is held (fetched if needed)", {
  required: ['chain_count'],
  properties: { chain_count: { type: 'integer', description: 'Chains held' } },
});
