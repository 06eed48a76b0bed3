import type { Request } from 'express';
import type { Actor, AuditEntry } from '../data/audit-log';
import type { AuditSource } from '../data/audited-account-store';

/** The source of changes made by a request: `actor`, from the request's client address (TRUSTED_PROXIES decide which). */
export function requestSource(req: Request, actor: Actor): AuditSource {
  return { actor, from: req.ip ?? null };
}

/** Changes made through the admin API: its bearer is known only as the holder of the admin token. */
export const adminApiSource = (req: Request): AuditSource => requestSource(req, { type: 'operator', id: 'admin token', via: 'admin-api' });

/** Changes a customer makes: by the key that came with the request (through the API), else by the person signed in to the portal. */
export const customerSource = (req: Request, caller: { account: { id: string }; key?: { id: string }; person?: { id: string } }): AuditSource =>
  requestSource(req, { type: 'customer', id: caller.key?.id ?? caller.person?.id ?? caller.account.id, via: caller.key ? 'dashboard-api' : 'portal' });

/**
 * An audit entry as its customer reads it (their account's export): an operator is "an operator",
 * with neither their address (nor `admin token`, nor the CLI's user and host) nor where they came
 * from; the operators' own views keep both. What was done, when and through what stays.
 */
export function entryForCustomer(entry: AuditEntry): AuditEntry {
  if (entry.actor.type !== 'operator') return entry;
  return { ...entry, actor: { type: 'operator', id: 'an operator', via: entry.actor.via }, from: null };
}
