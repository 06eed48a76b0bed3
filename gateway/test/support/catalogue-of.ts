import type { Catalogue } from '../../src/domain/catalogue';
import { parseCatalogue } from '../../src/domain/catalogue-file';

/** A catalogue of these APIs at these upstreams, each with one free plan: for rooms that read only where services are. */
export function catalogueOf(upstreams: Record<string, string>): () => Catalogue {
  // A catalogue file needs an API; rooms built with none (the gateway's own docs alone) get an empty one.
  if (Object.keys(upstreams).length === 0) return () => ({ apis: {}, source: 'test', digest: 'none' });
  const apis = Object.fromEntries(Object.entries(upstreams).map(([name, upstream]) => [name, { title: name, summary: `The ${name} API`, upstream, plans: { free: { monthly_quota: 1000, rate_per_second: 5, price: 0, currency: 'USD' } } }]));
  const catalogue = parseCatalogue(JSON.stringify({ apis }), { source: 'test', format: 'json', defaults: { timeoutMs: 15_000, maxConnections: 256 } });
  return () => catalogue;
}
