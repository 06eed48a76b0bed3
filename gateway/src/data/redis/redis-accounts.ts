import { EmailTakenError, newAccountRecord } from '../account-store';
import type { Account, AccountStore, Page } from '../account-store';
import { LATE, pageOfIndex, present, refusedAfter, releaseEmail } from './account-context';
import type { AccountParts } from './account-context';
import { compField, encodeAccount, encodeSubscription, subscriptionField } from './record-codec';
import { indexMember, redisKeys } from './redis-keys';

type AccountsPart = Pick<AccountStore, 'createAccount' | 'getAccount' | 'findAccountByEmail' | 'listAccounts' | 'countAccounts' | 'setSubscription' | 'setEmailVerified' | 'setStatus' | 'changeEmail'>;

/** Accounts and their subscriptions in Redis, each account in its own slot (see redis-keys.ts). */
export function redisAccounts(parts: AccountParts): AccountsPart {
  const { redis, ctx, scripts, readAccount } = parts;
  const { guard } = ctx;
  return {
    createAccount: (input) => {
      const id = parts.makeAccountId();
      const account = newAccountRecord(id, input, ctx.clock());
      // Once the client is told 503, the steps not yet sent must not be sent: the undo may run first.
      let abandoned = false;
      const forget = (): void => {
        abandoned = true;
        ctx.undo(async () => {
          await redis.del(redisKeys.account(id));
          await redis.zrem(redisKeys.accountIndex(), indexMember(Date.parse(account.created_at), id));
          if (account.email) await releaseEmail(redis, account.email, id);
        });
      };
      return refusedAfter(guard.run(
        'create_account',
        async (): Promise<Account | EmailTakenError> => {
          // The email is claimed first, in its own slot: the claim is what makes it unique.
          if (account.email && !(await redis.set(redisKeys.email(account.email), id, 'NX'))) {
            return new EmailTakenError((await redis.get(redisKeys.email(account.email))) ?? '');
          }
          try {
            if (abandoned) throw new Error(LATE);
            if (!(await scripts.tollgateCreate(redisKeys.account(id), ctx.deadline(ctx.maxWaitMs), ...Object.entries(encodeAccount(account)).flat()))) throw new Error(LATE);
            await redis.zadd(redisKeys.accountIndex(), 0, indexMember(Date.parse(account.created_at), id));
          } catch (err) {
            forget();
            throw err;
          }
          return account;
        },
        forget,
      ));
    },
    getAccount: (id) => guard.run('get_account', () => readAccount(id)),
    findAccountByEmail: (email) =>
      guard.run('find_account', async () => {
        const id = await redis.get(redisKeys.email(email));
        return id ? readAccount(id) : undefined;
      }),
    listAccounts: ({ cursor, limit, email, newestFirst }) =>
      guard.run('list_accounts', async (): Promise<Page<Account>> => {
        if (email !== undefined) {
          const id = await redis.get(redisKeys.email(email));
          const account = id && !cursor ? await readAccount(id) : undefined;
          return { items: account ? [account] : [], next_cursor: null };
        }
        const { ids, next } = await pageOfIndex(redis, redisKeys.accountIndex(), cursor, limit, newestFirst);
        return { items: (await Promise.all(ids.map(readAccount))).filter(present), next_cursor: next };
      }),
    countAccounts: () => guard.run('count_accounts', () => redis.zcard(redisKeys.accountIndex())),
    setSubscription: (accountId, api, subscription) =>
      guard.run('set_subscription', async () => {
        const value = subscription ? encodeSubscription(subscription) : '';
        // The comp mark goes with the plan, in the same step: a plan set without it is no comp.
        if (!(await scripts.tollgateSetIfExists(redisKeys.account(accountId), subscriptionField(api), value, compField(api), subscription?.comp ? '1' : ''))) return undefined;
        return readAccount(accountId);
      }),
    setEmailVerified: (accountId) =>
      guard.run('set_email_verified', async () => {
        if (!(await scripts.tollgateSetIfExists(redisKeys.account(accountId), 'email_verified', '1'))) return undefined;
        return readAccount(accountId);
      }),
    changeEmail: (accountId, email) =>
      refusedAfter(
        guard.run('change_email', async (): Promise<Account | EmailTakenError | undefined> => {
          const account = await readAccount(accountId);
          if (!account || account.email === email) return account;
          // The new address is claimed first, as at creation: the claim is what keeps it unique.
          if (!(await redis.set(redisKeys.email(email), accountId, 'NX'))) {
            const holder = await redis.get(redisKeys.email(email));
            if (holder !== accountId) return new EmailTakenError(holder ?? '');
          }
          const fields = ['email', email, ...(account.name === account.email ? ['name', email] : [])];
          if (!(await scripts.tollgateSetIfExists(redisKeys.account(accountId), ...fields))) {
            await releaseEmail(redis, email, accountId);
            return undefined;
          }
          if (account.email) await releaseEmail(redis, account.email, accountId);
          return readAccount(accountId);
        }),
      ),
    setStatus: (accountId, status) =>
      guard.run('set_status', async () => {
        if (!(await scripts.tollgateSetIfExists(redisKeys.account(accountId), 'status', status))) return undefined;
        if (status === 'suspended') await redis.publish(redisKeys.revocations(), accountId);
        return readAccount(accountId);
      }),
  };
}
