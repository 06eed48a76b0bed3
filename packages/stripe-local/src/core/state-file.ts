import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { Collection } from './collection';
import type { Store } from './store';

// Bumped when what is kept changes shape; a file of another version is refused, not half read.
const VERSION = 1;

/** What a state file holds: every object, what is kept beside them, and the port last listened on. */
interface SavedState {
  version: number;
  port: number | null;
  collections: Record<string, unknown[]>;
  maps: Record<string, [string, unknown][]>;
}

const collectionsOf = (store: Store): [string, Collection<{ id: string; created: number }>][] =>
  Object.entries(store).filter((entry): entry is [string, Collection<{ id: string; created: number }>] => entry[1] instanceof Collection);
const mapsOf = (store: Store): [string, Map<string, unknown>][] => Object.entries(store).filter((entry): entry is [string, Map<string, unknown>] => entry[1] instanceof Map);

/**
 * Writes the store to `file` (JSON; a whole new file renamed over the old one, so a crash leaves
 * the previous state, never half of one).
 */
export function saveState(store: Store, file: string, port: number | null): void {
  const state: SavedState = {
    version: VERSION,
    port,
    collections: Object.fromEntries(collectionsOf(store).map(([name, collection]) => [name, collection.saved()])),
    maps: Object.fromEntries(mapsOf(store).map(([name, map]) => [name, [...map.entries()]])),
  };
  const next = `${file}.${process.pid}.tmp`;
  writeFileSync(next, JSON.stringify(state));
  renameSync(next, file);
}

/**
 * Fills `store` from `file`, when there is one; answers the port it was last listened on. A file
 * that cannot be read as a state of this version stops the start with a sentence naming it: starting
 * empty instead would forget every customer the gateway remembers.
 */
export function loadState(store: Store, file: string): { port: number | null } | undefined {
  if (!existsSync(file)) return undefined;
  let state: SavedState;
  try {
    state = JSON.parse(readFileSync(file, 'utf8')) as SavedState;
  } catch (err) {
    throw new Error(`stripe-local: the state file ${file} cannot be read (${(err as Error).message}); move it away to start empty`, { cause: err });
  }
  if (state?.version !== VERSION || typeof state.collections !== 'object' || typeof state.maps !== 'object') {
    throw new Error(`stripe-local: ${file} is not a state file of this version (${VERSION}); move it away to start empty`);
  }
  for (const [name, collection] of collectionsOf(store)) collection.restore((state.collections[name] ?? []) as { id: string; created: number }[]);
  for (const [name, map] of mapsOf(store)) {
    map.clear();
    for (const [key, value] of state.maps[name] ?? []) map.set(key, value);
  }
  return { port: typeof state.port === 'number' ? state.port : null };
}
