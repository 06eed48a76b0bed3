import { EmailTakenError, newAccountRecord, storedSubscription } from '../account-store';
import type { Account, AccountStore, Page } from '../account-store';
import { copy, listingMember, sortedIndex } from './account-state';
import type { MemoryParts } from './account-state';

type AccountsPart = Pick<AccountStore, 'createAccount' | 'getAccount' | 'findAccountByEmail' | 'listAccounts' | 'countAccounts' | 'setSubscription' | 'setEmailVerified' | 'setStatus' | 'changeEmail'>;

/** Accounts and their subscriptions in this process: the same rules as the Redis store. */
export function memoryAccounts(parts: MemoryParts): AccountsPart {
  const { accounts, emails, order, persist, options } = parts;
  const idOf = (member: string): string => member.slice(member.indexOf(':') + 1);
  // A page from the sorted members, as the Redis store reads its index: a binary search, so a
  // hundred thousand accounts page as fast as ten.
  const page = (cursor: string | undefined, limit: number, newestFirst: boolean): Page<Account> => {
    let members: string[];
    if (newestFirst) {
      // Every member before the cursor's place is older than it.
      const end = cursor === undefined ? order.length : sortedIndex(order, cursor);
      members = order.slice(Math.max(0, end - limit - 1), end).reverse();
    } else {
      const at = cursor === undefined ? 0 : sortedIndex(order, cursor);
      const start = cursor !== undefined && order[at] === cursor ? at + 1 : at;
      members = order.slice(start, start + limit + 1);
    }
    const shown = members.slice(0, limit);
    return { items: shown.map((m) => copy(accounts.get(idOf(m)))!), next_cursor: members.length > limit ? (shown.at(-1) ?? null) : null };
  };
  return {
    async createAccount(input) {
      const email = input.email ?? null;
      const holder = email === null ? undefined : emails.get(email);
      if (holder !== undefined) throw new EmailTakenError(holder);
      const account = newAccountRecord(parts.makeAccountId(), input, options.clock());
      accounts.set(account.id, account);
      if (email !== null) emails.set(email, account.id);
      const member = listingMember(account);
      order.splice(sortedIndex(order, member), 0, member);
      persist?.account(account.id);
      return copy(account)!;
    },
    getAccount: async (id) => copy(accounts.get(id)),
    findAccountByEmail: async (email) => copy(accounts.get(emails.get(email) ?? '')),
    async listAccounts({ cursor, limit, email, newestFirst = false }) {
      if (email !== undefined) {
        const account = accounts.get(emails.get(email) ?? '');
        return { items: account && !cursor ? [copy(account)!] : [], next_cursor: null };
      }
      return page(cursor, limit, newestFirst);
    },
    countAccounts: async () => accounts.size,
    async setSubscription(accountId, api, subscription) {
      const account = accounts.get(accountId);
      if (!account) return undefined;
      if (subscription) account.subscriptions[api] = storedSubscription(subscription);
      else delete account.subscriptions[api];
      persist?.account(accountId);
      return copy(account);
    },
    async setEmailVerified(accountId) {
      const account = accounts.get(accountId);
      if (!account) return undefined;
      account.email_verified = true;
      persist?.account(accountId);
      return copy(account);
    },
    async changeEmail(accountId, email) {
      const account = accounts.get(accountId);
      if (!account) return undefined;
      const holder = emails.get(email);
      if (holder !== undefined && holder !== accountId) throw new EmailTakenError(holder);
      if (account.email !== null) emails.delete(account.email);
      emails.set(email, accountId);
      if (account.name === account.email) account.name = email;
      account.email = email;
      persist?.account(accountId);
      return copy(account);
    },
    async setStatus(accountId, status) {
      const account = accounts.get(accountId);
      if (!account) return undefined;
      account.status = status;
      persist?.account(accountId);
      if (status === 'suspended') options.revoked(accountId);
      return copy(account);
    },
  };
}
