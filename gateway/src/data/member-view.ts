import type { Membership, TeamStore } from './team-store';

/** A member as the team routes, the export, the admin API and the console show one. */
export interface MemberView {
  person_id: string;
  /** Null once the person is gone. */
  email: string | null;
  name: string | null;
  role: Membership['role'];
  joined_at: string;
  invited_by: string | null;
}

/** A membership with its person's address and name. */
export async function memberView(teams: TeamStore, m: Membership): Promise<MemberView> {
  const person = await teams.getPerson(m.person_id);
  return { person_id: m.person_id, email: person?.email ?? null, name: person?.name ?? null, role: m.role, joined_at: m.joined_at, invited_by: m.invited_by };
}
