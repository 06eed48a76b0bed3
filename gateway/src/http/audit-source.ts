import type { Request } from 'express';
import type { Actor } from '../data/audit-log';
import type { AuditSource } from '../data/audited-account-store';

/** The source of changes made by a request: `actor`, from the request's client address (TRUSTED_PROXIES decide which). */
export function requestSource(req: Request, actor: Actor): AuditSource {
  return { actor, from: req.ip ?? null };
}

/** Changes made through the admin API: its bearer is known only as the holder of the admin token. */
export const adminApiSource = (req: Request): AuditSource => requestSource(req, { type: 'operator', id: 'admin token', via: 'admin-api' });
