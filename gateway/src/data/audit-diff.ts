/** The fields of two records that differ (compared as JSON), before and after; `ignore` names fields that change on their own (times). */
export function changedFields<T extends object>(before: T, after: T, ignore: readonly (keyof T)[] = []): { before: Partial<T>; after: Partial<T> } {
  const was: Partial<T> = {};
  const now: Partial<T> = {};
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)]) as Set<keyof T>) {
    if (ignore.includes(key) || JSON.stringify(before[key]) === JSON.stringify(after[key])) continue;
    was[key] = before[key];
    now[key] = after[key];
  }
  return { before: was, after: now };
}

/** Whether {@link changedFields} found nothing. */
export const unchanged = (diff: { before: object }): boolean => Object.keys(diff.before).length === 0;
