import type { SecretEntry } from '../../domain/admission';
import type { Account, AccountStore } from '../account-store';
import type { MemoryParts } from './account-state';
import { memoryAccounts } from './memory-accounts';
import { memoryApiKeys } from './memory-api-keys';
import { memoryHistory } from './memory-history';
import { memoryDeleteAccount } from './memory-delete-account';

/** The account store in this process, plus what the quota store beside it reads in the same step. */
export interface MemoryAccountStore extends AccountStore {
  /** The secret's entry and its account's state for one API, read synchronously by admission. */
  admissionState(accountId: string, hash: string, api: string): { secret: SecretEntry | undefined; account: { suspended: boolean; subscription?: Account['subscriptions'][string] } | undefined };
}

/**
 * Accounts, keys and history in this process: the same rules as the Redis store. Lost on restart,
 * unless a `persistence` writes `state` through to disk (the SQLite store).
 */
export function createMemoryAccountStore(parts: MemoryParts): MemoryAccountStore {
  return {
    ...memoryAccounts(parts),
    ...memoryApiKeys(parts),
    ...memoryHistory(parts),
    deleteAccount: memoryDeleteAccount(parts),
    admissionState(accountId, hash, api) {
      const account = parts.accounts.get(accountId);
      return { secret: parts.secretOf(hash, accountId), account: account && { suspended: account.status === 'suspended', subscription: account.subscriptions[api] } };
    },
  };
}
