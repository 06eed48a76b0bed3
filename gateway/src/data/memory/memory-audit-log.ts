import { AUDIT_RETENTION_DAYS } from '../audit-log';
import type { AuditEntry, AuditLog } from '../audit-log';
import type { Page } from '../account-store';

/** A page of `entries` (oldest first) after the cursor's, in the order asked for. */
function pageOf(entries: readonly AuditEntry[], cursor: string | undefined, limit: number, oldestFirst: boolean): Page<AuditEntry> {
  const seq = (entry: AuditEntry): number => Number(entry.id);
  const after = cursor === undefined ? undefined : Number(cursor);
  const ordered = oldestFirst ? entries : [...entries].reverse();
  const rest = after === undefined || Number.isNaN(after) ? ordered : ordered.filter((e) => (oldestFirst ? seq(e) > after : seq(e) < after));
  const items = rest.slice(0, limit);
  return { items: structuredClone(items), next_cursor: rest.length > limit ? items.at(-1)!.id : null };
}

/** The audit log in this process: lost on restart (the SQLite and Redis stores keep it). */
export function createMemoryAuditLog(clock: () => number): AuditLog {
  const entries: AuditEntry[] = [];
  let sequence = 0;
  return {
    async append(input) {
      const nowMs = clock();
      const entry: AuditEntry = { id: String(++sequence), at: new Date(nowMs).toISOString(), ...structuredClone(input) };
      entries.push(entry);
      const oldest = nowMs - AUDIT_RETENTION_DAYS * 86_400_000;
      while (entries.length && Date.parse(entries[0]!.at) < oldest) entries.shift();
      return structuredClone(entry);
    },
    async list({ accountId, cursor, limit, oldestFirst = false }) {
      return pageOf(accountId === undefined ? entries : entries.filter((e) => e.account_id === accountId), cursor, limit, oldestFirst);
    },
  };
}
