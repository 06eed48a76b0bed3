import type { Account, AccountStore } from '../data/account-store';
import type { Session } from '../data/session-store';
import { adoptAccount } from '../data/team-adoption';
import { PersonEmailTakenError } from '../data/team-store';
import type { Membership, Person, TeamStore } from '../data/team-store';

/** The person of a session and their place in its team. */
export interface SessionMember {
  person: Person;
  membership: Membership;
}

/**
 * Who a session is: its person, while they are still a member of its team. A session begun before
 * teams (no `person_id`) is its account's owner, once the account is adopted (team-adoption.ts).
 * Undefined when the person is gone or no longer a member: the session is then over.
 */
export async function memberOfSession(teams: TeamStore, session: Session, account: Account): Promise<SessionMember | undefined> {
  let personId = session.person_id;
  if (personId === undefined) {
    if (account.email === null) return undefined;
    await adoptAccount(teams, account);
    personId = (await teams.findPersonByEmail(account.email))?.id;
    if (personId === undefined) return undefined;
  }
  const [person, membership] = await Promise.all([teams.getPerson(personId), teams.getMembership(account.id, personId)]);
  return person && membership ? { person, membership } : undefined;
}

/** The person with a proven address: found, or made now (a first sign-in). */
async function personOf(teams: TeamStore, email: string): Promise<Person> {
  const found = await teams.findPersonByEmail(email);
  if (found) return found;
  try {
    return await teams.createPerson({ email });
  } catch (err) {
    if (!(err instanceof PersonEmailTakenError)) throw err;
    const made = await teams.findPersonByEmail(email);
    if (!made) throw err;
    return made;
  }
}

/**
 * The team a sign-in opens for a proven address (whose account `proven` was found or made as
 * before teams): the account is adopted first, so a person of before teams signs in to their own
 * account as its owner. Then the team used last, if they are still in it; else their first; a
 * person in no team (they left every one) gets a new team of their own.
 */
export async function teamOnSignIn(deps: { teamStore: TeamStore; accountStore: AccountStore }, proven: Account, email: string): Promise<{ account: Account; member: SessionMember }> {
  const { teamStore: teams, accountStore } = deps;
  await adoptAccount(teams, proven);
  const person = await personOf(teams, email);
  const memberships = await teams.listTeamsOf(person.id);
  let membership = memberships.find((m) => m.team_id === person.last_team_id) ?? memberships[0];
  let account = membership && (await accountStore.getAccount(membership.team_id));
  if (!membership || !account) {
    account = await accountStore.createAccount({ email: null, name: email, email_verified: true });
    membership = (await teams.addMember(account.id, person.id, 'owner', { invitedBy: null }))!;
  }
  if (person.last_team_id !== account.id) await teams.setLastTeam(person.id, account.id);
  return { account, member: { person: { ...person, last_team_id: account.id }, membership } };
}
