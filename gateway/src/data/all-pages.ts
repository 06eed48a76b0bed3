/** Every item of a cursor-paginated list, read a page at a time (for lists bounded per account: keys, audit entries). */
export async function allPages<T>(read: (cursor: string | undefined) => Promise<{ items: T[]; next_cursor: string | null } | undefined>): Promise<T[]> {
  const all: T[] = [];
  let cursor: string | undefined;
  do {
    const page = await read(cursor);
    all.push(...(page?.items ?? []));
    cursor = page?.next_cursor ?? undefined;
  } while (cursor);
  return all;
}
