import type { Logger } from '@tollgate/envelope';
import { catalogueChanges } from '../domain/catalogue';
import type { Catalogue, CatalogueApi, CatalogueChanges } from '../domain/catalogue';
import type { PlanTable } from '../domain/plans';
import type { NewAuditEntry } from './audit-log';
import type { AuditSource } from './audited-account-store';

/** Told of each new catalogue, once it is in force (synchronously, in the reload's step). */
export type CatalogueListener = (next: Catalogue, changes: CatalogueChanges, previous: Catalogue) => void;

/** An API a reload took out of the catalogue while this process ran. */
export interface WithdrawnApi {
  title: string;
  atMs: number;
}

/**
 * The catalogue in force, replaced whole by a reload. Rooms that look an API up when they use it
 * read {@link plans} (or {@link current}); rooms that build something per API (the proxy's
 * handlers, the portal's pages) rebuild it in an {@link onChange} listener.
 */
export interface LiveCatalogue {
  current(): Catalogue;
  /**
   * The plan table in force: one object for the process's life, whose entries a reload replaces in
   * one synchronous step, so no reader ever sees half of two catalogues. Its entries are the
   * catalogue's APIs (each is an ApiPlans).
   */
  readonly plans: PlanTable;
  /** An API this process's reloads withdrew (and no later one brought back): its calls are told so. */
  withdrawn(api: string): WithdrawnApi | undefined;
  /** Puts `next` in force and tells the listeners; an API equal to the one before is kept as that object. */
  replace(next: Catalogue, nowMs: number): CatalogueChanges;
  onChange(listener: CatalogueListener): void;
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/** The catalogue read at start, made replaceable. */
export function createLiveCatalogue(initial: Catalogue, logger?: Logger): LiveCatalogue {
  let catalogue = initial;
  const plans: PlanTable = {};
  const withdrawn = new Map<string, WithdrawnApi>();
  const listeners: CatalogueListener[] = [];
  const fill = (): void => {
    // Every key is deleted and set again so the table keeps the catalogue's order.
    for (const name of Object.keys(plans)) delete plans[name];
    for (const [name, api] of Object.entries(catalogue.apis)) plans[name] = api;
  };
  fill();
  return {
    current: () => catalogue,
    plans,
    withdrawn: (api) => withdrawn.get(api),
    replace(next, nowMs) {
      const previous = catalogue;
      // An unchanged API stays the same object: what was built from it (a handler, a Redis script) stays valid.
      const apis: Record<string, CatalogueApi> = {};
      for (const [name, api] of Object.entries(next.apis)) {
        const before = Object.hasOwn(previous.apis, name) ? previous.apis[name] : undefined;
        apis[name] = before && same(before, api) ? before : api;
      }
      catalogue = { ...next, apis };
      const changes = catalogueChanges(previous, catalogue);
      for (const name of changes.removed) withdrawn.set(name, { title: (previous.apis[name] as CatalogueApi).title, atMs: nowMs });
      for (const name of changes.added) withdrawn.delete(name);
      fill();
      for (const listener of listeners) {
        try {
          listener(catalogue, changes, previous);
        } catch (err) {
          // A room that failed to follow keeps what it had; the others follow, and the log says which.
          logger?.error({ err: (err as Error).stack ?? (err as Error).message }, 'a part of the gateway did not take the new catalogue');
        }
      }
      return changes;
    },
    onChange(listener) {
      listeners.push(listener);
    },
  };
}

/** A catalogue file that does not validate: the running catalogue stays in force. */
export class CatalogueInvalidError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CatalogueInvalidError';
  }
}

/** What a reload did, as the admin route, the CLI and the log say it. */
export interface CatalogueReload {
  source: string;
  digest: string;
  previous_digest: string;
  apis: string[];
  changes: CatalogueChanges;
  /** What followed in other rooms (billing's withdrawals), when this process does that work. */
  followed?: Record<string, unknown>;
}

/** What {@link createCatalogueReloader} needs. */
export interface ReloaderDeps {
  live: LiveCatalogue;
  /** Reads and validates the catalogue again (config.ts's readCatalogue); throws one line when it is bad. */
  read: () => Catalogue;
  clock: () => number;
  logger: Logger;
  /** Runs after a catalogue is in force (billing ends paid plans that were withdrawn); its answer goes in the reload's. */
  follow?: (changes: CatalogueChanges) => Promise<Record<string, unknown> | undefined>;
  /** Records each reload that put a catalogue in force (the audit log, an entry of no account). */
  audit?: (entry: NewAuditEntry) => Promise<void>;
}

/**
 * Reads the catalogue again and puts it in force: one reload at a time; a file that does not
 * validate leaves the running one in force and throws {@link CatalogueInvalidError} with its one
 * line (also logged).
 */
export function createCatalogueReloader(deps: ReloaderDeps): (by: AuditSource) => Promise<CatalogueReload> {
  let queue: Promise<unknown> = Promise.resolve();
  const reload = async (source: AuditSource): Promise<CatalogueReload> => {
    const by = `${source.actor.id} (${source.actor.via})`;
    const previous = deps.live.current();
    let next: Catalogue;
    try {
      next = deps.read();
    } catch (err) {
      const message = `${(err as Error).message}; the running catalogue (${previous.digest}) stays in force`;
      deps.logger.error({ by, catalogue: previous.source, digest: previous.digest }, `catalogue not reloaded: ${message}`);
      throw new CatalogueInvalidError(message);
    }
    const changes = deps.live.replace(next, deps.clock());
    const result: CatalogueReload = { source: next.source, digest: next.digest, previous_digest: previous.digest, apis: Object.keys(next.apis), changes };
    deps.logger.info({ by, ...result }, `catalogue reloaded from ${next.source}: ${summary(changes)}`);
    await deps.audit?.({ account_id: null, ...source, action: 'catalogue.reload', target: next.source, details: { digest: next.digest, previous_digest: previous.digest, changes } });
    const followed = await deps.follow?.(changes).catch((err: unknown) => {
      deps.logger.error({ err: (err as Error).message }, 'after the catalogue reload, paid plans that were withdrawn were not all ended; billing’s reconciliation tries again');
      return { error: (err as Error).message };
    });
    if (followed) result.followed = followed;
    return result;
  };
  return (source) => {
    const run = queue.then(() => reload(source));
    queue = run.catch(() => undefined);
    return run;
  };
}

/** `added weather; removed —; …` for the log line. */
function summary(changes: CatalogueChanges): string {
  const part = (name: string, list: string[]): string => `${name} ${list.length ? list.join(', ') : '—'}`;
  return [part('added', changes.added), part('removed', changes.removed), part('changed', changes.changed), part('plans withdrawn', changes.plansWithdrawn), part('plans repriced', changes.plansRepriced)].join('; ');
}
