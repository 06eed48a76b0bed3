import type { AccountStore } from '../../../src/data/account-store';

/** One account of the seeded many, with what its customer holds: a key's secret. */
export interface SeededAccount {
  accountId: string;
  email: string;
  secret: string;
  prefix: string;
  last4: string;
}

/** Makes `count` accounts of one key each (`user<i>@example.com`); returns the one at `target`. */
export async function seedAccounts(store: AccountStore, count: number, target: number): Promise<SeededAccount> {
  let chosen: SeededAccount | undefined;
  for (let i = 0; i < count; i++) {
    const email = `user${i}@example.com`;
    const account = await store.createAccount({ email });
    const created = (await store.createKey(account.id, { name: 'default' }))!;
    if (i === target) chosen = { accountId: account.id, email, secret: created.key, prefix: created.record.prefix, last4: created.record.last4 };
  }
  if (!chosen) throw new Error(`no account ${target} among ${count}`);
  return chosen;
}
