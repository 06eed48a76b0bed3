import { mayDo } from '../domain/team-roles';
import type { Account } from './account-store';
import type { TeamStore } from './team-store';

/**
 * Where mail about a team's money goes (payments, plan changes): the address of every member whose
 * role sees billing (owners and billing members, domain/team-roles.ts), each once, in the order they
 * joined; the team's contact address while it has no member (an account nobody has signed in to
 * since teams, or made from a key). Admins and developers get none of it: they see no money.
 */
export async function billingRecipients(teams: TeamStore, account: Pick<Account, 'id' | 'email'>): Promise<string[]> {
  const members = await teams.listMembers(account.id);
  if (members.length === 0) return account.email ? [account.email] : [];
  const people = await Promise.all(members.filter((m) => mayDo(m.role, 'billing')).map((m) => teams.getPerson(m.person_id)));
  return [...new Set(people.flatMap((person) => (person ? [person.email] : [])))];
}
