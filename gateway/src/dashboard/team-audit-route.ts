import type { Request, Router } from 'express';
import { sendOk } from '@tollgate/envelope/core';
import type { AuditLog } from '../data/audit-log';
import type { TeamStore } from '../data/team-store';
import { entryForCustomer } from '../http/audit-source';
import type { SessionCaller } from './session-auth';
import { TEAM_ROUTES } from './team-route-docs';

/** How many of the newest entries the team's log shows (the owner's export has them all). */
export const TEAM_AUDIT_ENTRIES = 50;

/** Adds `GET /team/audit`: the team's newest audit entries, and the address of each person named in them. */
export function addTeamAuditRoute(router: Router, deps: { auditLog: AuditLog; teamStore: TeamStore; signedIn: (req: Request) => Promise<SessionCaller> }): void {
  router.get('/team/audit', async (req, res) => {
    const caller = await deps.signedIn(req);
    const page = await deps.auditLog.list({ accountId: caller.account.id, limit: TEAM_AUDIT_ENTRIES });
    const entries = page.items.map(entryForCustomer);
    // Entries keep person ids; a page shows addresses, as they are now (null: the person is gone).
    const ids = [...new Set(entries.flatMap((e) => [e.actor.id, e.target ?? '']).filter((id) => id.startsWith('per_')))];
    const people = Object.fromEntries(await Promise.all(ids.map(async (id) => [id, (await deps.teamStore.getPerson(id))?.email ?? null] as const)));
    sendOk(res, { entries, people }, TEAM_ROUTES.teamAudit.message);
  });
}
