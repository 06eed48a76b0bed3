import { invalidRequest } from '../http/stripe-error';
import type { Params, RawValue } from './params';

/** Stripe's metadata: string values only. */
export type Metadata = Record<string, string>;

/**
 * `current` with the request's `metadata` applied as Stripe applies it: keys merge, a key sent as
 * `''` is removed, `metadata=''` clears everything. Stripe's limits hold: 50 keys, keys up to 40
 * characters, values up to 500.
 */
export function readMetadata(params: Params, current: Metadata = {}, key = 'metadata'): Metadata {
  const raw = params.value(key);
  if (raw === undefined) return current;
  if (raw === '') return {};
  const name = params.name(key);
  if (typeof raw !== 'object') throw invalidRequest(`Invalid hash: ${name}`, { param: name });
  const next: Metadata = { ...current };
  // Keys that are numbers (`metadata[0]`) reach here as a sparse array; its keys are the indices.
  for (const field of Object.keys(raw)) {
    const value = (raw as Record<string, RawValue>)[field];
    if (typeof value !== 'string') throw invalidRequest(`Invalid string: ${name}[${field}]`, { param: `${name}[${field}]` });
    if (field.length > 40) throw invalidRequest(`Metadata keys can have up to 40 characters; ${field.slice(0, 40)}… is longer.`, { param: name });
    if (value.length > 500) throw invalidRequest(`Metadata values can have up to 500 characters; ${field} has ${value.length}.`, { param: `${name}[${field}]` });
    if (value === '') delete next[field];
    else next[field] = value;
  }
  if (Object.keys(next).length > 50) throw invalidRequest('Metadata can have up to 50 keys.', { param: name });
  return next;
}
