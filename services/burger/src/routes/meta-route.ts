import type { RequestHandler } from 'express';
import { createQueryParser, sendOk } from '@tollgate/envelope';
import type { QuerySchema, RouteDoc } from '@tollgate/envelope';
import type { DatasetStore } from '../data/dataset-store';
import { PUBLISHED_BASES } from '../domain/big-mac-row';
import { RELEASE_DATE_SCHEMA, SOURCE_SCHEMA } from './schemas';
import { META_EXAMPLE } from './route-examples';

/** Service slug, as `meta.service` reports it. */
export const SERVICE = 'burger';

const NOTE =
  'Valuations are in percent against the base currency: positive means the currency is over-valued, negative under-valued. ' +
  `base is one of ${PUBLISHED_BASES.join(', ')} (any case; these equal the published columns) or any other currency code of the latest release (computed as The Economist does). ` +
  'country accepts a name, an ISO3 code or a currency code, in any case and with or without accents, and common aliases such as UK, USA and Eurozone. ' +
  'GDP-adjusted figures are omitted where the dataset has none. This is a purchasing-power gauge, not a live exchange rate.';

const query: QuerySchema = { type: 'object', additionalProperties: false, properties: {} };

/** GET /v1/meta. */
export const META_ROUTE: RouteDoc = {
  method: 'get',
  path: '/v1/meta',
  summary: 'What this API serves and how fresh its copy is',
  query,
  example: META_EXAMPLE,
  data: {
    type: 'object',
    additionalProperties: false,
    required: ['note', 'source', 'service', 'countries', 'endpoints', 'description', 'latest_release', 'upstream_status'],
    properties: {
      note: { type: 'string', description: 'Sign convention, allowed bases, accepted country forms' },
      source: SOURCE_SCHEMA,
      service: { type: 'string', const: SERVICE },
      countries: { type: 'integer', minimum: 0, description: 'Countries in the latest release' },
      endpoints: { type: 'object', additionalProperties: { type: 'string' }, description: '"METHOD path" → one-line description' },
      description: { type: 'string' },
      latest_release: RELEASE_DATE_SCHEMA,
      upstream_status: {
        type: 'string',
        enum: ['ok', 'stale'],
        description: 'ok when the upstream answered the last check; stale when it failed and the last good copy is served',
      },
      upstream_error: { type: 'string', description: 'Why the last check failed; present only while stale' },
    },
  },
  message: 'Meta',
  errors: ['BAD_REQUEST', 'FORBIDDEN', 'UPSTREAM_UNAVAILABLE'],
};

const parse = createQueryParser<Record<string, never>>(query);

/** Describes the service and the state of its copy; never cached, since the upstream state changes. */
export function createMetaHandler(store: DatasetStore, endpoints: Readonly<Record<string, string>>, source: string): RequestHandler {
  return async (req, res) => {
    parse(req.query);
    const snapshot = await store.get();
    const { upstreamStatus, lastError } = store.status();
    sendOk(
      res,
      {
        note: NOTE,
        source,
        service: SERVICE,
        countries: snapshot.dataset.latest.length,
        endpoints,
        description: 'Big Mac index: how over- or under-valued currencies are, measured by the price of a burger, with every release since 2000.',
        latest_release: snapshot.dataset.latestRelease,
        upstream_status: upstreamStatus,
        ...(lastError === undefined ? {} : { upstream_error: lastError }),
      },
      META_ROUTE.message,
    );
  };
}
