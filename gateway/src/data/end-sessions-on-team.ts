import type { SessionStore } from './session-store';

/** Ends a person's sessions on one team (removed, left, or deleted); resolves with how many ended. */
export async function endSessionsOnTeam(sessionStore: SessionStore, teamId: string, personId: string): Promise<number> {
  let ended = 0;
  for (const { tokenHash, session } of await sessionStore.listSessions(teamId)) {
    if (session.account_id !== teamId || session.person_id !== personId) continue;
    await sessionStore.deleteSession(tokenHash);
    ended++;
  }
  return ended;
}
