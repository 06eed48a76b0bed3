import { planOf } from '../objects/price';
import type { Store } from './store';

/** A JSON value as the API sends it. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/**
 * A copy of a stored object as the API shows it now: subscription items carry their price (as it
 * is now) and the legacy `plan`. Events keep such a copy, so they show the object at their time.
 */
export function present(store: Store, object: object): Record<string, Json> {
  const copy = structuredClone(object) as Record<string, Json>;
  hydrate(store, copy);
  return copy;
}

function hydrate(store: Store, value: Json): void {
  if (Array.isArray(value)) {
    for (const item of value) hydrate(store, item);
    return;
  }
  if (value === null || typeof value !== 'object') return;
  if (value.object === 'subscription_item' && typeof value.price === 'string') {
    const price = store.prices.get(value.price);
    if (price) {
      value.price = structuredClone(price) as unknown as Json;
      value.plan = planOf(price) as Json;
    }
    return;
  }
  for (const key of Object.keys(value)) hydrate(store, value[key] as Json);
}
