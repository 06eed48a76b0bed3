import { invalidRequest, resourceMissing } from '../http/stripe-error';
import type { ListObject } from '../objects/list-object';
import type { Params } from './params';

/** The parameters every list endpoint takes. */
export const LIST_PARAMS = ['limit', 'starting_after', 'ending_before', 'created'];

/**
 * One page of a list in Stripe's order (newest first): `limit` (1–100, 10 by default), the cursor
 * `starting_after` (the page after that object) or `ending_before` (the page before it), and the
 * `created` filter (a time, or `created[gt|gte|lt|lte]`).
 */
export function paginate<T extends { id: string; created: number }>(items: T[], params: Params, url: string, resource: string): ListObject<T> {
  const limit = params.integer('limit') ?? 10;
  if (limit < 1 || limit > 100) throw invalidRequest('This value must be greater than or equal to 1 and less than or equal to 100.', { param: 'limit' });
  const after = params.string('starting_after');
  const before = params.string('ending_before');
  if (after && before) throw invalidRequest('You may only specify one of these parameters: ending_before, starting_after.', { param: 'ending_before' });
  const filtered = filterCreated(items, params);
  if (before) {
    const end = indexOf(filtered, before, resource, 'ending_before');
    const start = Math.max(0, end - limit);
    return { object: 'list', data: filtered.slice(start, end), has_more: start > 0, url };
  }
  const start = after ? indexOf(filtered, after, resource, 'starting_after') + 1 : 0;
  const page = filtered.slice(start, start + limit);
  return { object: 'list', data: page, has_more: start + limit < filtered.length, url };
}

function indexOf(items: { id: string }[], id: string, resource: string, param: string): number {
  const index = items.findIndex((item) => item.id === id);
  if (index < 0) throw resourceMissing(resource, id, param);
  return index;
}

function filterCreated<T extends { created: number }>(items: T[], params: Params): T[] {
  if (!params.has('created')) return items;
  if (typeof params.value('created') === 'string') {
    const at = params.integer('created');
    return at === undefined ? items : items.filter((item) => item.created === at);
  }
  const range = params.object('created')?.allow('gt', 'gte', 'lt', 'lte');
  if (!range) return items;
  const [gt, gte, lt, lte] = ['gt', 'gte', 'lt', 'lte'].map((key) => range.integer(key));
  return items.filter(
    (item) =>
      (gt === undefined || item.created > gt) &&
      (gte === undefined || item.created >= gte) &&
      (lt === undefined || item.created < lt) &&
      (lte === undefined || item.created <= lte),
  );
}
