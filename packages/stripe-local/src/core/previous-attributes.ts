import type { Json } from './present';

function isHash(value: Json | undefined): value is { [key: string]: Json } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Stripe's `data.previous_attributes`: the earlier values of what changed. Inside a hash only its
 * changed keys are named (a list's `data` array is named whole); `undefined` when nothing changed.
 */
export function previousAttributes(before: { [key: string]: Json }, after: { [key: string]: Json }): { [key: string]: Json } | undefined {
  const changed: { [key: string]: Json } = {};
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const old = before[key];
    const now = after[key];
    if (JSON.stringify(old) === JSON.stringify(now)) continue;
    if (isHash(old) && isHash(now)) changed[key] = previousAttributes(old, now) ?? {};
    else changed[key] = old ?? null;
  }
  return Object.keys(changed).length > 0 ? changed : undefined;
}
