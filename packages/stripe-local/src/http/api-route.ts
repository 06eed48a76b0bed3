import type { Params } from '../core/params';
import type { EventRequest } from '../objects/stripe-event';

/** A request to the REST API, parsed. */
export interface ApiRequest {
  /** The form body of a POST, the query of a GET or DELETE. */
  params: Params;
  /** The path's `:name` parts. */
  path: Record<string, string>;
  /** This request's id and idempotency key, for the events it causes. */
  request: EventRequest;
}

/** One endpoint: what it answers with (an object as the API shows it, before `expand[]`). */
export interface ApiRoute {
  method: 'GET' | 'POST' | 'DELETE';
  pattern: string;
  handler: (request: ApiRequest) => object;
}

/** A route that matched, with its path parameters. */
export interface RouteMatch<R extends { pattern: string }> {
  route: R;
  path: Record<string, string>;
}

/**
 * The route for a method and path (`/v1/customers/:id/…`); path parameters are percent-decoded,
 * and a path that cannot be decoded matches nothing.
 */
export function matchRoute<R extends { method: string; pattern: string }>(routes: readonly R[], method: string, pathname: string): RouteMatch<R> | undefined {
  const parts = pathname.split('/');
  for (const route of routes) {
    if (route.method !== method) continue;
    const pattern = route.pattern.split('/');
    if (pattern.length !== parts.length) continue;
    const path: Record<string, string> = {};
    const matches = pattern.every((segment, index) => {
      const part = parts[index] ?? '';
      if (!segment.startsWith(':')) return segment === part;
      const value = decode(part);
      if (value === undefined || value === '') return false;
      path[segment.slice(1)] = value;
      return true;
    });
    if (matches) return { route, path };
  }
  return undefined;
}

function decode(part: string): string | undefined {
  try {
    return decodeURIComponent(part);
  } catch {
    return undefined;
  }
}
