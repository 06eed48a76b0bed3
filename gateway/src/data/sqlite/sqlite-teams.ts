import type Database from 'better-sqlite3';
import type { Membership, Person } from '../team-store';
import { emptyTeamState } from '../memory/memory-teams';
import type { MemoryTeamPersistence, MemoryTeamState, StoredInvitation } from '../memory/memory-teams';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS people (id TEXT PRIMARY KEY, record TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS team_members (team_id TEXT NOT NULL, person_id TEXT NOT NULL, record TEXT NOT NULL, PRIMARY KEY (team_id, person_id)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS team_invitations (id TEXT PRIMARY KEY, record TEXT NOT NULL) WITHOUT ROWID;
`;

/**
 * The team store's state in the embedded file: read whole at open, then every change written before
 * it resolves, as accounts are (a member added or an invitation sent survives `kill -9`). A file
 * written before teams gets the empty tables; its accounts become teams by adoption (team-adoption.ts).
 */
export function openSqliteTeams(db: Database.Database): { state: MemoryTeamState; persist: MemoryTeamPersistence } {
  db.exec(SCHEMA);
  const state = emptyTeamState();
  for (const row of db.prepare('SELECT record FROM people').all() as { record: string }[]) {
    const person = JSON.parse(row.record) as Person;
    state.people.set(person.id, person);
  }
  for (const row of db.prepare('SELECT record FROM team_members').all() as { record: string }[]) {
    const membership = JSON.parse(row.record) as Membership;
    state.members.set(membership.team_id, (state.members.get(membership.team_id) ?? new Map<string, Membership>()).set(membership.person_id, membership));
  }
  for (const row of db.prepare('SELECT record FROM team_invitations').all() as { record: string }[]) {
    const invitation = JSON.parse(row.record) as StoredInvitation;
    state.invitations.set(invitation.id, invitation);
  }
  const putPerson = db.prepare('INSERT OR REPLACE INTO people (id, record) VALUES (?, ?)');
  const dropPerson = db.prepare('DELETE FROM people WHERE id = ?');
  const putMember = db.prepare('INSERT OR REPLACE INTO team_members (team_id, person_id, record) VALUES (?, ?, ?)');
  const dropMember = db.prepare('DELETE FROM team_members WHERE team_id = ? AND person_id = ?');
  const putInvitation = db.prepare('INSERT OR REPLACE INTO team_invitations (id, record) VALUES (?, ?)');
  const dropInvitation = db.prepare('DELETE FROM team_invitations WHERE id = ?');
  return {
    state,
    persist: {
      person(personId) {
        const person = state.people.get(personId);
        if (person) putPerson.run(personId, JSON.stringify(person));
        else dropPerson.run(personId);
      },
      member(teamId, personId) {
        const membership = state.members.get(teamId)?.get(personId);
        if (membership) putMember.run(teamId, personId, JSON.stringify(membership));
        else dropMember.run(teamId, personId);
      },
      invitation(invitationId) {
        const invitation = state.invitations.get(invitationId);
        if (invitation) putInvitation.run(invitationId, JSON.stringify(invitation));
        else dropInvitation.run(invitationId);
      },
    },
  };
}
