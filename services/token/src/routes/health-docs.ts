import type { RouteDoc } from '@tollgate/envelope';

/** `GET /healthz`, served by the envelope's health routes. */
export const healthzRoute: RouteDoc = {
  method: 'get',
  path: '/healthz',
  summary: 'Liveness: the process answers',
  data: { type: 'object', additionalProperties: false, required: ['status'], properties: { status: { const: 'alive' } } },
  message: 'Alive',
  // Only a defect could fail it; an empty list would give the error schema an empty enum.
  errors: ['INTERNAL'],
};

/** `GET /readyz`: ready once the indexer's chain list is held. */
export const readyzRoute: RouteDoc = {
  method: 'get',
  path: '/readyz',
  summary: "Readiness: the indexer's chain list is held (fetched if needed)",
  data: {
    type: 'object',
    additionalProperties: false,
    required: ['status', 'chain_count'],
    properties: { status: { const: 'ready' }, chain_count: { type: 'integer', description: 'Chains held' } },
  },
  message: 'Ready',
  errors: ['NOT_READY'],
};
