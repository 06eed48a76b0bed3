import { decodeEventLog, type Hex } from 'viem';
import type { EventSpec } from './events.js';

/** A decoded log: event name, canonical signature and arguments as strings. */
export interface DecodedEvent {
  event: string;
  signature: string;
  args: Record<string, DecodedValue>;
}

/** A decoded argument: decimal/hex text, a list of them, or null when nothing could be read. */
export type DecodedValue = string | DecodedValue[] | null;

// JSON has no bigint: every value becomes text (numbers in decimal, so nothing is rounded).
function toText(value: unknown): DecodedValue {
  if (value === undefined || value === null) return null;
  if (Array.isArray(value)) return value.map(toText);
  if (typeof value === 'bigint' || typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (typeof value === 'string') return value;
  return JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
}

// The caller's declaration may name an argument `__proto__`, which viem's args object loses (an
// assignment to `__proto__` sets a prototype): decoding the unnamed item yields values by position.
const unnamed = new WeakMap<EventSpec['item'], EventSpec['item']>();
function unnamedItem(item: EventSpec['item']): EventSpec['item'] {
  let stripped = unnamed.get(item);
  if (!stripped) {
    stripped = { ...item, inputs: item.inputs.map((input) => ({ ...input, name: '' })) };
    unnamed.set(item, stripped);
  }
  return stripped;
}

/**
 * Decodes a log with the first candidate whose selector and topic count fit and whose data
 * decodes strictly; null when none does (unknown event, or e.g. a non-standard layout).
 */
export function decodeLog(topics: readonly Hex[], data: Hex, bySelector: ReadonlyMap<string, readonly EventSpec[]>): DecodedEvent | null {
  const selector = topics[0];
  if (!selector) return null;
  const candidates = bySelector.get(selector.toLowerCase()) ?? [];
  for (const spec of candidates) {
    if (spec.topicCount !== topics.length) continue;
    try {
      const decoded = decodeEventLog({ abi: [unnamedItem(spec.item)], topics: topics as [Hex, ...Hex[]], data, strict: true });
      const raw = (decoded.args ?? []) as unknown as unknown[];
      // A null-prototype object, so that `__proto__` or `constructor` are plain keys.
      const args: Record<string, DecodedValue> = Object.create(null) as Record<string, DecodedValue>;
      spec.item.inputs.forEach((input, i) => {
        args[input.name || String(i)] = toText(raw[i]);
      });
      return { event: spec.item.name, signature: spec.signature, args };
    } catch {
      // The layout does not fit this candidate; the next one may.
    }
  }
  return null;
}
