import type { Collection, Stored } from '../core/collection';
import { LIST_PARAMS, paginate } from '../core/paginate';
import type { Params } from '../core/params';
import type { ApiRoute } from '../http/api-route';

/** One list filter: reads its parameter, and keeps the objects that match (all, when absent). */
export type ListFilter<T> = (params: Params, name: string) => ((item: T) => boolean) | undefined;

/** `GET <pattern>/:id`: one object of the collection. */
export function retrieveRoute<T extends Stored>(pattern: string, collection: Collection<T>): ApiRoute {
  return { method: 'GET', pattern: `${pattern}/:id`, handler: ({ params, path }) => (params.allow(), collection.require(path.id!)) };
}

/** `GET <pattern>`: a page of the collection, filtered by the named parameters. */
export function listRoute<T extends Stored>(pattern: string, collection: Collection<T>, filters: Record<string, ListFilter<T>> = {}): ApiRoute {
  return {
    method: 'GET',
    pattern,
    handler: ({ params }) => {
      params.allow(...Object.keys(filters), ...LIST_PARAMS);
      const tests = Object.entries(filters).flatMap(([name, filter]) => filter(params, name) ?? []);
      return paginate(
        collection.all().filter((item) => tests.every((test) => test(item))),
        params,
        pattern,
        collection.resource,
      );
    },
  };
}

/** Keeps objects whose field equals the parameter. */
export function equalTo<T>(field: (item: T) => unknown): ListFilter<T> {
  return (params, name) => {
    const value = params.string(name);
    return value === undefined ? undefined : (item) => field(item) === value;
  };
}

/** Keeps objects whose field names the object the parameter names, which must exist: Stripe answers "No such customer" for a customer it does not have. */
export function ofExisting<T>(collection: Collection<Stored>, field: (item: T) => unknown): ListFilter<T> {
  return (params, name) => {
    const value = params.string(name);
    if (value === undefined) return undefined;
    collection.require(value, name);
    return (item) => field(item) === value;
  };
}

/** Keeps objects whose boolean field equals the parameter (`true` or `false`). */
export function sameBoolean<T>(field: (item: T) => boolean): ListFilter<T> {
  return (params, name) => {
    const value = params.boolean(name);
    return value === undefined ? undefined : (item) => field(item) === value;
  };
}

/** Keeps objects whose field equals the parameter, which must be one of `values`. */
export function oneOf<T, V extends string>(values: readonly V[], field: (item: T) => unknown): ListFilter<T> {
  return (params, name) => {
    const value = params.oneOf(name, values);
    return value === undefined ? undefined : (item) => field(item) === value;
  };
}
