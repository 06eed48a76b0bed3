import type { AccountStore } from '../account-store';
import { historyDaysKept } from '../retention';
import { copy, indexPrefix, listingMember, sortedIndex } from './account-state';
import type { MemoryParts } from './account-state';

/**
 * Erases an account in this process: keys and secrets first (admission refuses them as unknown from
 * then on), then its history days, billing, address and record, each change told to the persistence.
 */
export function memoryDeleteAccount(parts: MemoryParts): AccountStore['deleteAccount'] {
  const { accounts, emails, keys, secrets, history, billing, customers, order, prefixes, accountKeys, persist, options } = parts;
  return async (accountId) => {
    const account = accounts.get(accountId);
    if (!account) return undefined;
    for (const keyId of accountKeys.get(accountId) ?? []) {
      const stored = keys.get(keyId)!;
      secrets.delete(stored.hash);
      if (stored.previousHash !== undefined) secrets.delete(stored.previousHash);
      indexPrefix(prefixes, stored.record.prefix, keyId, false);
      keys.delete(keyId);
      persist?.key(keyId);
      options.revoked(keyId);
    }
    accountKeys.delete(accountId);
    for (const day of historyDaysKept(options.clock())) {
      const name = `${accountId}|${day}`;
      if (history.delete(name)) persist?.history(name);
    }
    for (const customerId of Object.values(billing.get(accountId)?.customers ?? {})) customers.delete(customerId);
    if (billing.delete(accountId)) persist?.billing(accountId, false);
    if (account.email !== null && emails.get(account.email) === accountId) emails.delete(account.email);
    const at = sortedIndex(order, listingMember(account));
    if (order[at] === listingMember(account)) order.splice(at, 1);
    accounts.delete(accountId);
    persist?.account(accountId);
    options.revoked(accountId);
    return copy(account);
  };
}
