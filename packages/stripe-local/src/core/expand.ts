import { invalidRequest } from '../http/stripe-error';
import { embeddedList } from '../objects/list-object';
import { present } from './present';
import type { Json } from './present';
import { findById } from './store';
import type { Store } from './store';

type Hash = { [key: string]: Json };

/** Stripe expands at most four levels deep. */
const MAX_DEPTH = 4;

/**
 * Applies `expand[]` to an answer (changing it in place): each dotted path is followed through
 * hashes and arrays (a list's `data` is named in the path: `items.data.price.product`), and an
 * id found at its end, or on the way, becomes the object it names. A path that leads nowhere is
 * Stripe's 400 "This property cannot be expanded".
 */
export function expand(store: Store, answer: Hash, paths: string[]): Hash {
  for (const path of paths) {
    const segments = path.split('.');
    if (segments.length > MAX_DEPTH + 1 || segments.filter((s) => s !== 'data').length > MAX_DEPTH) {
      throw invalidRequest(`You cannot expand more than ${MAX_DEPTH} levels of a property. Property: ${path}`, { param: 'expand' });
    }
    walk(store, answer, segments, path);
  }
  return answer;
}

function walk(store: Store, node: Json, segments: string[], path: string): void {
  if (Array.isArray(node)) {
    for (const element of node) walk(store, element, segments, path);
    return;
  }
  const [segment, ...rest] = segments;
  if (segment === undefined || node === null || typeof node !== 'object') return;
  let value = Object.hasOwn(node, segment) ? node[segment] : included(store, node, segment);
  if (value === undefined || typeof value === 'number' || typeof value === 'boolean' || (typeof value === 'string' && segment === 'id')) {
    throw invalidRequest(`This property cannot be expanded (${path}).`, { param: 'expand' });
  }
  if (typeof value === 'string') {
    const found = findById(store, value);
    if (!found) throw invalidRequest(`This property cannot be expanded (${path}).`, { param: 'expand' });
    value = present(store, found);
  }
  node[segment] = value;
  walk(store, value, rest, path);
}

// Fields Stripe leaves out unless they are expanded.
function included(store: Store, node: Hash, field: string): Json | undefined {
  if (node.object === 'checkout.session' && field === 'line_items' && typeof node.id === 'string') {
    const lines = store.sessionPlans.get(node.id)?.lines ?? [];
    const list = embeddedList(lines.map((line) => ({ ...line, price: present(store, store.prices.require(line.price)) })), `/v1/checkout/sessions/${node.id}/line_items`);
    return list as unknown as Json;
  }
  return undefined;
}
