import type { Logger } from '@tollgate/envelope';
import type { Account, AccountStore } from './account-store';
import { PersonEmailTakenError, adoptedPersonId } from './team-store';
import type { Membership, TeamStore } from './team-store';

/**
 * The migration of one account to a team of one (docs/teams.md): for an account with an address
 * and no members, the person with that address (found, or made with an id derived from the
 * account's) becomes its owner. Reads and writes nothing of the account itself, so keys, counters,
 * history and billing are as they were. Idempotent, and safe to run from several gateways at once:
 * resolves with the owner membership it added, or undefined when there was nothing to do.
 */
export async function adoptAccount(teams: TeamStore, account: Pick<Account, 'id' | 'email' | 'name'>): Promise<Membership | undefined> {
  if (account.email === null) return undefined;
  if ((await teams.listMembers(account.id)).length > 0) return undefined;
  let person = await teams.findPersonByEmail(account.email);
  if (!person) {
    try {
      person = await teams.createPerson({ id: adoptedPersonId(account.id), email: account.email, name: account.name || account.email });
    } catch (err) {
      // Another gateway made the person first: theirs is the one.
      if (!(err instanceof PersonEmailTakenError)) throw err;
      person = await teams.getPerson(err.personId);
      if (!person) throw err;
    }
  }
  const added = await teams.addMember(account.id, person.id, 'owner', { invitedBy: null, onlyIfEmpty: true });
  if (added && person.last_team_id === null) await teams.setLastTeam(person.id, account.id);
  return added;
}

// The embedded store answers from memory, so its promises are settled at once: without a turn of
// the event loop between accounts, a walk of 10,000 ran as one chain of microtasks and the gateway
// could not take a connection until it ended.
const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Adopts every account, a page at a time, letting requests in between accounts; resolves with how many became teams now. */
export async function adoptAllAccounts(accounts: AccountStore, teams: TeamStore, pageSize = 200): Promise<number> {
  let adopted = 0;
  let cursor: string | undefined;
  do {
    const page = await accounts.listAccounts({ cursor, limit: pageSize });
    for (const account of page.items) {
      if (await adoptAccount(teams, account)) adopted++;
      await nextTurn();
    }
    cursor = page.next_cursor ?? undefined;
  } while (cursor !== undefined);
  return adopted;
}

/** A store's record that the walk at start was done: a later start skips it (one read). */
export interface AdoptionMarker {
  done(): Promise<boolean>;
  mark(): Promise<void>;
}

/**
 * The walk at a gateway's start: every account not yet a team becomes a team of one, once per store
 * when it keeps a `marker` (Redis), else at every start (SQLite: a pass over memory). Accounts made
 * later by an older gateway (a rolling upgrade) are adopted at sign-in. A store that fails midway is
 * not marked, so the next start walks again; the gateway starts either way, since sign-in adopts too.
 */
export async function adoptAtStart(stores: { accountStore: AccountStore; teamStore: TeamStore }, logger: Logger, marker?: AdoptionMarker): Promise<void> {
  try {
    if (marker && (await marker.done())) return;
    const adopted = await adoptAllAccounts(stores.accountStore, stores.teamStore);
    await marker?.mark();
    if (adopted) logger.info({ accounts: adopted }, 'accounts made before teams are teams of one now, each owned by the person of its address');
  } catch (err) {
    logger.warn({ err: (err as Error).message }, 'accounts made before teams not all adopted at start; tried again at the next start, and each is adopted at its next sign-in');
  }
}
