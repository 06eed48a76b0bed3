import type { Response } from 'express';
import { createQueryParser } from '@tollgate/envelope/core';
import type { Page } from '../data/account-store';
import type { AuditEntry, AuditLog } from '../data/audit-log';
import { AUDIT_EXPORT_QUERY, AUDIT_QUERY } from './account-requests';

/** Reading the audit log, for the admin API, the console and the CLI alike; there is nothing to change in it. */
export interface AuditActions {
  list(query: unknown): Promise<Page<AuditEntry>>;
  /**
   * Checks an export's query now (throwing a 400 before anything is sent), then gives what hands
   * every entry (one account's, when asked), oldest first, to `write` one at a time.
   */
  export(query: unknown): (write: (entry: AuditEntry) => void | Promise<void>) => Promise<number>;
}

/** Answers an export as JSON lines, a download: one entry a line, oldest first, written as they are read. */
export async function sendAuditExport(res: Response, run: ReturnType<AuditActions['export']>): Promise<void> {
  res.status(200).type('application/x-ndjson').set('Content-Disposition', 'attachment; filename="tollgate-audit.jsonl"');
  await run((entry) => void res.write(`${JSON.stringify(entry)}\n`));
  res.end();
}

// Entries read per store call while exporting.
const EXPORT_PAGE = 500;

/** Builds the audit actions over one log. */
export function createAuditActions(auditLog: AuditLog): AuditActions {
  const parseList = createQueryParser<{ limit: number; cursor?: string; account_id?: string; order: 'newest' | 'oldest' }>(AUDIT_QUERY);
  const parseExport = createQueryParser<{ account_id?: string }>(AUDIT_EXPORT_QUERY);
  return {
    list(raw) {
      const { limit, cursor, account_id: accountId, order } = parseList(raw);
      return auditLog.list({ limit, cursor, accountId, oldestFirst: order === 'oldest' });
    },
    export(raw) {
      const { account_id: accountId } = parseExport(raw);
      return async (write) => {
        let cursor: string | undefined;
        let count = 0;
        do {
          const page = await auditLog.list({ accountId, cursor, limit: EXPORT_PAGE, oldestFirst: true });
          for (const entry of page.items) await write(entry);
          count += page.items.length;
          cursor = page.next_cursor ?? undefined;
        } while (cursor);
        return count;
      };
    },
  };
}
