import { PROXY_SECRET_HEADER } from '@tollgate/envelope/core';
import type { OpenApiDocument } from '@tollgate/envelope/core';
import type { Catalogue } from '../domain/catalogue';
import type { ApiDocument } from '../domain/merge-openapi';
import { routeMatcher } from '../domain/route-matcher';

/** What {@link createServiceDocuments} needs. */
export interface ServiceDocumentsDeps {
  /** The catalogue in force: which APIs there are, and where each one's document is. */
  catalogue: () => Catalogue;
  proxySecret?: string;
  clock: () => number;
  /** How long a fetched document is used before it is asked for again. */
  maxAgeMs?: number;
  /** How long an unreachable service is left before the routing check asks again. */
  retryMs?: number;
  fetchTimeoutMs?: number;
}

/** Each service's own OpenAPI document, fetched with the proxy secret and kept for a while. */
export interface ServiceDocuments {
  /** Every API's document, asking again for any that is stale or could not be had last time. */
  all(): Promise<ApiDocument[]>;
  /**
   * Whether the path is one of the API's documented routes; undefined while the document is not
   * known (the service is down or not yet asked), so routing never waits on it. Asks in the
   * background when the document is stale.
   */
  hasRoute(api: string, path: string): boolean | undefined;
  /** The route template the path matches (`/v1/countries/{code}`); null when it matches none, undefined while the document is not known (as {@link hasRoute}). */
  routeOf(api: string, path: string): string | null | undefined;
  /** Asks for the API's document again at its next use (a reload changed the API). */
  askAgain(api: string): void;
  /** Resolves when no service is being asked (each ask started so far has its answer or its failure). */
  idle(): Promise<void>;
}

interface Entry {
  at: number;
  /** Where it was asked for: a reload that moves the document makes it stale. */
  url: string;
  /** How long this entry is used before the service is asked again. */
  staleAfterMs: number;
  result: ApiDocument;
  matches?: (path: string) => string | null;
}

const isDocument = (value: unknown): value is OpenApiDocument =>
  typeof value === 'object' && value !== null && typeof (value as OpenApiDocument).openapi === 'string' && typeof (value as OpenApiDocument).paths === 'object' && (value as OpenApiDocument).paths !== null;

/** Service documents for `/docs` and for refusing paths no service has (404, uncharged). */
export function createServiceDocuments(deps: ServiceDocumentsDeps): ServiceDocuments {
  const maxAgeMs = deps.maxAgeMs ?? 60_000;
  const retryMs = deps.retryMs ?? 5_000;
  const entries = new Map<string, Entry>();
  const pending = new Map<string, Promise<ApiDocument>>();

  // `answered`: the service itself said it has no document (asked again after maxAgeMs), as
  // against not being reached at all (asked again after retryMs).
  async function fetchDocument(api: string, url: string): Promise<{ result: ApiDocument; answered: boolean }> {
    try {
      const res = await fetch(url, {
        headers: deps.proxySecret ? { [PROXY_SECRET_HEADER]: deps.proxySecret } : {},
        signal: AbortSignal.timeout(deps.fetchTimeoutMs ?? 3_000),
      });
      if (!res.ok) return { result: { api, error: `status ${res.status}` }, answered: true };
      const body: unknown = await res.json();
      return { result: isDocument(body) ? { api, document: body } : { api, error: 'not an OpenAPI document' }, answered: true };
    } catch (err) {
      return { result: { api, error: (err as Error).message }, answered: false };
    }
  }

  function refresh(api: string, url: string): Promise<ApiDocument> {
    let running = pending.get(api);
    if (!running) {
      running = fetchDocument(api, url).then(({ result, answered }) => {
        pending.delete(api);
        const entry: Entry = { at: deps.clock(), url, staleAfterMs: answered ? maxAgeMs : retryMs, result };
        if ('document' in result) entry.matches = routeMatcher(result.document);
        else {
          // A failed fetch keeps the last good matcher: a service restarting does not open every path.
          const previous = entries.get(api)?.matches;
          if (previous) entry.matches = previous;
        }
        entries.set(api, entry);
        return result;
      });
      pending.set(api, running);
    }
    return running;
  }

  const routeOf = (api: string, path: string): string | null | undefined => {
    const entry = entries.get(api);
    if (!entry || deps.clock() - entry.at > entry.staleAfterMs) {
      const { apis } = deps.catalogue();
      const url = Object.hasOwn(apis, api) ? apis[api]?.openapi : undefined;
      if (url !== undefined) void refresh(api, url);
    }
    return entry?.matches?.(path);
  };

  return {
    all: () =>
      Promise.all(
        Object.values(deps.catalogue().apis).map(({ name, openapi }) => {
          const entry = entries.get(name);
          const fresh = entry && entry.url === openapi && 'document' in entry.result && deps.clock() - entry.at <= maxAgeMs;
          return fresh ? entry.result : refresh(name, openapi);
        }),
      ),
    hasRoute(api, path) {
      const route = routeOf(api, path);
      return route === undefined ? undefined : route !== null;
    },
    routeOf,
    askAgain(api) {
      const entry = entries.get(api);
      // Its routes stay known meanwhile: an API whose document moved keeps its matcher until the new one comes.
      if (entry) entry.at = Number.NEGATIVE_INFINITY;
    },
    idle: async () => {
      while (pending.size) await Promise.all(pending.values());
    },
  };
}
