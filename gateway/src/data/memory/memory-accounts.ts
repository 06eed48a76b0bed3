import { EmailTakenError, newAccountRecord } from '../account-store';
import type { AccountStore } from '../account-store';
import { copy, pageOf } from './account-state';
import type { MemoryParts } from './account-state';

type AccountsPart = Pick<AccountStore, 'createAccount' | 'getAccount' | 'findAccountByEmail' | 'listAccounts' | 'setSubscription' | 'setEmailVerified' | 'setStatus'>;

/** Accounts and their subscriptions in this process: the same rules as the Redis store. */
export function memoryAccounts(parts: MemoryParts): AccountsPart {
  const { accounts, emails, persist, options } = parts;
  return {
    async createAccount(input) {
      const email = input.email ?? null;
      const holder = email === null ? undefined : emails.get(email);
      if (holder !== undefined) throw new EmailTakenError(holder);
      const account = newAccountRecord(parts.makeAccountId(), input, options.clock());
      accounts.set(account.id, account);
      if (email !== null) emails.set(email, account.id);
      persist?.account(account.id);
      return copy(account)!;
    },
    getAccount: async (id) => copy(accounts.get(id)),
    findAccountByEmail: async (email) => copy(accounts.get(emails.get(email) ?? '')),
    async listAccounts({ cursor, limit, email }) {
      if (email !== undefined) {
        const account = accounts.get(emails.get(email) ?? '');
        return { items: account && !cursor ? [copy(account)!] : [], next_cursor: null };
      }
      return pageOf(accounts.values(), cursor, limit);
    },
    async setSubscription(accountId, api, subscription) {
      const account = accounts.get(accountId);
      if (!account) return undefined;
      if (subscription) account.subscriptions[api] = { ...subscription };
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
