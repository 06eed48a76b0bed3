import { AppError } from '@tollgate/envelope/core';
import { ACCOUNT_SUSPENDED } from '../domain/customer-messages';
import { EmailTakenError } from '../data/account-store';
import type { Account, AccountStore } from '../data/account-store';

/**
 * The account of an address just proven by a mailed code: made now on a first sign-in (or JSON
 * sign-up). Proving an address whose account was made unproven (by a JSON sign-up of before)
 * revokes the keys made before: whoever made them may not own it.
 */
export function createProvenAccount(accountStore: AccountStore): (email: string) => Promise<Account> {
  /** Revokes every live key of an account; resolves with how many there were. */
  async function revokeLiveKeys(accountId: string): Promise<number> {
    let revoked = 0;
    let cursor: string | undefined;
    do {
      const page = await accountStore.listKeys(accountId, { cursor, limit: 100 });
      for (const key of page?.items ?? []) {
        if (key.revoked_at) continue;
        await accountStore.revokeKey(key.id);
        revoked++;
      }
      cursor = page?.next_cursor ?? undefined;
    } while (cursor);
    return revoked;
  }

  return async (email) => {
    let account = await accountStore.findAccountByEmail(email);
    if (!account) {
      try {
        return await accountStore.createAccount({ email, name: email, email_verified: true });
      } catch (err) {
        if (!(err instanceof EmailTakenError)) throw err;
        account = await accountStore.findAccountByEmail(email);
        if (!account) throw err;
      }
    }
    if (account.status === 'suspended') throw new AppError('FORBIDDEN', ACCOUNT_SUSPENDED, { details: { reason: 'suspended' } });
    if (account.email_verified) return account;
    // Passes until one finds nothing live: a key made with an old one while a pass ran is caught by
    // the next (what is left is a key whose creation was under way through the last pass).
    while ((await revokeLiveKeys(account.id)) > 0);
    return (await accountStore.setEmailVerified(account.id)) ?? account;
  };
}
