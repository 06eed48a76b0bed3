import { AppError, createQueryParser } from '@tollgate/envelope/core';
import { accountOfKeyId, isAccountId, parseApiKey } from '../domain/api-key';
import { normaliseEmail } from '../domain/email';
import type { Account, AccountStore, ApiKey } from '../data/account-store';
import { FIND_ACCOUNTS_QUERY } from './account-requests';

/** An account found, with the keys that matched when it was found by a key. */
export interface AccountMatch {
  account: Account;
  keys: ApiKey[];
}

/** The most keys a prefix search looks at. */
export const MAX_PREFIX_MATCHES = 50;

// A key as the console and the portal show it: the prefix, an ellipsis (or three dots) and the last four.
const SHOWN_KEY = /^([A-Za-z0-9_]{4,40})(?:(?:…|\.\.\.)([A-Za-z0-9]{1,4}))?$/;

const refused = (): AppError =>
  new AppError('BAD_REQUEST', 'q must be an email address, an account id (acc_…), a key id (key_…), a key as shown (tg_…, tg_……last4) or a key’s full secret', { details: { parameter: 'q' } });

/**
 * Finds accounts by what an operator has at hand, each way an index lookup (never a scan, so it
 * stays instant at any number of accounts): an email address (exact, case-insensitive) or an
 * account id (with the account's first {@link MAX_PREFIX_MATCHES} keys), a key id, a key's full
 * secret (by its hash, as the gateway finds it: never kept), or a key's prefix as stored on its
 * record (with the last four, when given as shown, narrowing the keys).
 */
export function createAccountSearch(store: AccountStore): (query: unknown) => Promise<{ items: AccountMatch[] }> {
  const parse = createQueryParser<{ q: string }>(FIND_ACCOUNTS_QUERY);
  const one = (account: Account | undefined, keys: ApiKey[] = []): { items: AccountMatch[] } => ({ items: account ? [{ account, keys }] : [] });
  const withKeys = async (account: Account | undefined): Promise<{ items: AccountMatch[] }> => one(account, account && (await store.listKeys(account.id, { limit: MAX_PREFIX_MATCHES }))?.items);
  return async (query) => {
    const q = parse(query).q.trim();
    if (q.includes('@')) {
      const email = normaliseEmail(q);
      if (email === null) throw refused();
      return withKeys(await store.findAccountByEmail(email));
    }
    if (isAccountId(q)) return withKeys(await store.getAccount(q));
    const secret = parseApiKey(q);
    if (secret.ok) {
      const found = await store.findKey(q);
      return one(found?.account, found ? [found.key] : []);
    }
    if (secret.reason !== 'malformed') throw new AppError('BAD_REQUEST', `q has the shape of a key's secret but ${secret.reason === 'checksum' ? 'its checksum does not match' : 'not its length'}: mistyped or cut short`, { details: { parameter: 'q' } });
    const owner = accountOfKeyId(q);
    if (owner) {
      const key = await store.getKey(q);
      return one(key && (await store.getAccount(key.account_id)), key ? [key] : []);
    }
    const shown = SHOWN_KEY.exec(q);
    if (!shown) throw refused();
    const [, prefix = '', last4] = shown;
    const keys = (await store.findKeysByPrefix(prefix, MAX_PREFIX_MATCHES)).filter((key) => last4 === undefined || key.last4.endsWith(last4));
    const byAccount = new Map<string, ApiKey[]>();
    for (const key of keys.sort((a, b) => a.created_at.localeCompare(b.created_at))) byAccount.set(key.account_id, [...(byAccount.get(key.account_id) ?? []), key]);
    const accounts = await Promise.all([...byAccount.keys()].map((id) => store.getAccount(id)));
    return { items: accounts.flatMap((account) => (account ? [{ account, keys: byAccount.get(account.id)! }] : [])) };
  };
}
