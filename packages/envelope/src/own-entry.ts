/**
 * `table[key]` for a key a client chose: only the table's own entries count, so `constructor`,
 * `__proto__` or `toString` find nothing instead of a function or `Object.prototype`.
 *
 * @example
 * const rule = ownEntry(RULES, chain) ?? EVM;
 */
export function ownEntry<T>(table: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}
