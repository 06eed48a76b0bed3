import type { Subscription } from '../domain/admission';
import { normaliseEmail } from '../domain/email';
import { EmailTakenError } from './account-store';
import type { Account, AccountStore, ApiKey } from './account-store';
import { forEachKey } from './each-key';

/** A key as the routes made before accounts show it: the key, with its account's subscriptions. */
export interface KeyRecord {
  id: string;
  account_id: string;
  owner: string;
  created_at: string;
  revoked_at: string | null;
  subscriptions: Record<string, Subscription>;
}

/** What creating a key takes. */
export interface NewKey {
  owner: string;
  subscriptions?: Record<string, Subscription>;
  /** False for self-service sign-up (the address is not proven yet); true unless said. */
  email_verified?: boolean;
}

/** Keys as one-key accounts: the admin routes, CLI commands and tests made before accounts. */
export interface KeyStore {
  /** Creates an account of one key; the returned secret is shown once. */
  create(input: NewKey): Promise<{ key: string; record: KeyRecord }>;
  get(id: string): Promise<KeyRecord | undefined>;
  /** The record of a presented secret (revoked ones included), or undefined when unknown. */
  findByKey(key: string): Promise<KeyRecord | undefined>;
  list(): Promise<KeyRecord[]>;
  /** Sets the subscription of the key's account. */
  setSubscription(id: string, api: string, subscription: Subscription): Promise<KeyRecord | undefined>;
  /** Marks a key revoked (idempotent: the first revocation time is kept). */
  revoke(id: string): Promise<KeyRecord | undefined>;
}

function view(key: ApiKey, account: Account): KeyRecord {
  return { id: key.id, account_id: account.id, owner: account.email ?? account.name, created_at: key.created_at, revoked_at: key.revoked_at, subscriptions: account.subscriptions };
}

/**
 * {@link KeyStore} over any {@link AccountStore}. Creating a key makes an account holding it, with
 * the owner as its email when it is an unused address, else as its name; the key's subscriptions
 * are its account's (shared with any key added to it later).
 */
export function createLegacyKeyStore(accounts: AccountStore): KeyStore {
  const withAccount = async (key: ApiKey | undefined): Promise<KeyRecord | undefined> => {
    const account = key && (await accounts.getAccount(key.account_id));
    return key && account && view(key, account);
  };
  const create = async (input: NewKey): Promise<Account> => {
    const email = normaliseEmail(input.owner);
    try {
      return await accounts.createAccount({ email, name: input.owner, subscriptions: input.subscriptions, email_verified: input.email_verified });
    } catch (err) {
      if (!(err instanceof EmailTakenError)) throw err;
      return accounts.createAccount({ email: null, name: input.owner, subscriptions: input.subscriptions, email_verified: input.email_verified });
    }
  };
  return {
    async create(input) {
      const account = await create(input);
      const created = await accounts.createKey(account.id, { name: 'default' });
      if (!created) throw new Error(`the account ${account.id} vanished while its key was made`);
      return { key: created.key, record: view(created.record, account) };
    },
    get: async (id) => withAccount(await accounts.getKey(id)),
    async findByKey(secret) {
      const found = await accounts.findKey(secret);
      return found && view(found.key, found.account);
    },
    async list() {
      const records: KeyRecord[] = [];
      await forEachKey(accounts, (key, account) => void records.push(view(key, account)));
      return records.sort((a, b) => a.created_at.localeCompare(b.created_at));
    },
    async setSubscription(id, api, subscription) {
      const key = await accounts.getKey(id);
      const account = key && (await accounts.setSubscription(key.account_id, api, subscription));
      return key && account && view(key, account);
    },
    revoke: async (id) => withAccount(await accounts.revokeKey(id)),
  };
}
