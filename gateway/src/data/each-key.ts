import { allPages } from './all-pages';
import type { Account, AccountStore, ApiKey } from './account-store';

/** Visits every key of every account, a page of 100 accounts and of 100 keys at a time (so a large store is never read whole). */
export async function forEachKey(accounts: Pick<AccountStore, 'listAccounts' | 'listKeys'>, visit: (key: ApiKey, account: Account) => void | Promise<void>): Promise<void> {
  let cursor: string | undefined;
  do {
    const page = await accounts.listAccounts({ cursor, limit: 100 });
    for (const account of page.items) {
      for (const key of await allPages((keyCursor) => accounts.listKeys(account.id, { cursor: keyCursor, limit: 100 }))) await visit(key, account);
    }
    cursor = page.next_cursor ?? undefined;
  } while (cursor);
}
