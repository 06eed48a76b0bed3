import type { RouteDoc } from '@tollgate/envelope';

/** GET /healthz, as envelope's health routes answer it. */
export const HEALTHZ_ROUTE: RouteDoc = {
  method: 'get',
  path: '/healthz',
  summary: 'Liveness: the process answers',
  data: { type: 'object', additionalProperties: false, required: ['status'], properties: { status: { const: 'alive' } } },
  message: 'Alive',
  // Any route can fail unexpectedly; liveness has no other failure.
  errors: ['INTERNAL'],
};

/** GET /readyz: ready once a copy of the dataset is loaded. */
export const READYZ_ROUTE: RouteDoc = {
  method: 'get',
  path: '/readyz',
  summary: 'Readiness: a copy of the dataset is loaded',
  data: {
    type: 'object',
    additionalProperties: false,
    required: ['status', 'latest_release', 'countries', 'rows', 'parse_ms', 'upstream_status'],
    properties: {
      status: { const: 'ready' },
      latest_release: { type: 'string' },
      countries: { type: 'integer' },
      rows: { type: 'integer', description: 'Rows of the loaded CSV' },
      parse_ms: { type: 'number', description: 'How long parsing the loaded CSV took' },
      upstream_status: { type: 'string', enum: ['ok', 'stale'] },
    },
  },
  message: 'Ready',
  errors: ['NOT_READY'],
};
