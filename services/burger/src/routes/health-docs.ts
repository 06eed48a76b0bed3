import { HEALTHZ_ROUTE, createReadyzRoute } from '@tollgate/envelope';

/** `GET /healthz`, served by the envelope's health routes. */
export { HEALTHZ_ROUTE };

/** GET /readyz: ready once a copy of the dataset is loaded. */
export const READYZ_ROUTE = createReadyzRoute('Readiness: a copy of the dataset is loaded', {
  required: ['latest_release', 'countries', 'rows', 'parse_ms', 'upstream_status'],
  properties: {
    latest_release: { type: 'string' },
    countries: { type: 'integer' },
    rows: { type: 'integer', description: 'Rows of the loaded CSV' },
    parse_ms: { type: 'number', description: 'How long parsing the loaded CSV took' },
    upstream_status: { type: 'string', enum: ['ok', 'stale'] },
  },
});
