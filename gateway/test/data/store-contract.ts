import type { ApiPlans } from '../../src/domain/plans';
import type { Subscription } from '../../src/domain/admission';
import { generateApiKey, hashApiKey, keyHints, parseApiKey } from '../../src/domain/api-key';
import { EmailTakenError, KeyLimitError, KeyRevokedError } from '../../src/data/account-store';
import type { Account } from '../../src/data/account-store';
import type { Admission } from '../../src/data/quota-store';
import type { Stores } from '../../src/data/stores';
import { usageFields } from '../../src/data/usage-breakdown';
import { describeBillingContract } from './billing-store-contract';
import { describeUsageBreakdownContract } from './usage-breakdown-contract';
import { describeOperatorContract } from './operator-store-contract';
import { describeEventContract } from './event-store-contract';
import { describeAccountSettingsContract } from './account-settings-contract';
import { describeTeamContract } from './team-store-contract';

/** A clock the tests move by hand. */
export interface ManualClock {
  now: () => number;
  set(ms: number): void;
  advance(ms: number): void;
}

/** A clock starting at `start` that only moves when told to. */
export function manualClock(start: number): ManualClock {
  let t = start;
  return { now: () => t, set: (ms) => void (t = ms), advance: (ms) => void (t += ms) };
}

const plans: ApiPlans = {
  playground_per_day: 3,
  plans: {
    tiny: { monthly_quota: 4, rate_per_second: 100, price: 0, currency: 'EUR' },
    slow: { monthly_quota: 1000, rate_per_second: 2, price: 500, currency: 'EUR' },
    wide: { monthly_quota: 1000, rate_per_second: 50, price: 900, currency: 'EUR' },
  },
};
const closed: ApiPlans = { ...plans, playground_per_day: 0 };
const START = Date.parse('2026-03-31T23:59:58.000Z');
const iso = (ms: number): string => new Date(ms).toISOString();
const NO_ACCOUNT = 'acc_000000000000000000000000';
const NO_KEY = 'key_00000000000000000000000000000000';

/** The account a presented secret names and its hash, as the gate reads them. */
function presented(secret: string): { accountId: string; keyHash: string } {
  const parsed = parseApiKey(secret);
  if (!parsed.ok) throw new Error(`not a key: ${secret} (${parsed.reason})`);
  return { accountId: parsed.accountId, keyHash: parsed.hash };
}

/**
 * The behaviour every store set (AccountStore, its KeyStore façade, QuotaStore) must show; run
 * against memory and Redis. `open` builds fresh, empty stores on the given clock and is closed
 * after each test.
 */
export function describeStoreContract(name: string, open: (clock: () => number) => Promise<{ stores: Stores; close: () => Promise<void> }>): void {
  describe(`${name} stores`, () => {
    let clock: ManualClock;
    let stores: Stores;
    let close: () => Promise<void>;

    beforeEach(async () => {
      clock = manualClock(START);
      ({ stores, close } = await open(clock.now));
    });
    afterEach(() => close());

    /** A key made through the façade made before accounts: an account of one key. */
    async function keyWith(subscriptions: Record<string, Subscription> = {}, owner = 'ada@example.com') {
      const created = await stores.keyStore.create({ owner, subscriptions });
      return { ...created, accountId: created.record.account_id, hash: hashApiKey(created.key) };
    }
    /** Admits a call presenting `secret` (its account and hash read from it). */
    const admit = (k: { key: string } | string, apiPlans: ApiPlans = plans, api = 'token'): Promise<Admission> =>
      stores.quotaStore.admit({ ...presented(typeof k === 'string' ? k : k.key), api, apiPlans, nowMs: clock.now() });
    const outcome = async (secret: string, api = 'token'): Promise<string> => (await admit(secret, plans, api)).outcome;
    const usage = (accountId: string, api = 'token', at = clock.now()) => stores.quotaStore.usage(accountId, api, at);
    /** An account with `n` keys, all subscribed to `subscriptions`. */
    async function accountWithKeys(n: number, subscriptions: Record<string, Subscription> = { token: { plan: 'tiny', status: 'active' } }, email: string | null = null) {
      const account = await stores.accountStore.createAccount({ email, name: 'Team', subscriptions });
      const keys = [];
      for (let i = 0; i < n; i++) {
        keys.push((await stores.accountStore.createKey(account.id, { name: `key ${i}` }))!);
        clock.advance(1);
      }
      return { account, keys };
    }

    describe('keys as one-key accounts (the façade made before accounts)', () => {
      it('when a key is created, then it is found by id, by secret and in the list, and the secret is not stored', async () => {
        const k = await keyWith({ token: { plan: 'tiny', status: 'active' } });
        const expected = { id: k.record.id, account_id: k.accountId, owner: 'ada@example.com', created_at: iso(START), revoked_at: null, subscriptions: { token: { plan: 'tiny', status: 'active' } } };
        expect(k.record).toEqual(expected);
        expect(await stores.keyStore.get(k.record.id)).toEqual(expected);
        expect(await stores.keyStore.findByKey(k.key)).toEqual(expected);
        expect(await stores.keyStore.findByKey(`${k.key}x`)).toBeUndefined();
        expect(await stores.keyStore.list()).toEqual([expected]);
        expect(JSON.stringify(await stores.keyStore.get(k.record.id))).not.toContain(k.key);
      });

      it('when the owner is an address, then it is the account email; when it is not or is taken, then it is the name and the email is null', async () => {
        const byEmail = await keyWith({}, ' Ada@Example.com ');
        clock.advance(1);
        const byName = await keyWith({}, 'ops team');
        clock.advance(1);
        const taken = await keyWith({}, 'ada@example.com');
        expect(await stores.accountStore.getAccount(byEmail.accountId)).toMatchObject({ email: 'ada@example.com', name: ' Ada@Example.com ' });
        expect(await stores.accountStore.getAccount(byName.accountId)).toMatchObject({ email: null, name: 'ops team' });
        expect(await stores.accountStore.getAccount(taken.accountId)).toMatchObject({ email: null, name: 'ada@example.com' });
        expect(new Set([byEmail.accountId, byName.accountId, taken.accountId]).size).toBe(3);
        expect((await stores.keyStore.list()).map((r) => r.owner)).toEqual(['ada@example.com', 'ops team', 'ada@example.com']);
      });

      it('when a subscription is set or a key revoked, then the record shows it; unknown ids give undefined', async () => {
        const k = await keyWith();
        expect(await stores.keyStore.setSubscription(k.record.id, 'logs', { plan: 'slow', status: 'inactive' })).toMatchObject({ subscriptions: { logs: { plan: 'slow', status: 'inactive' } } });
        const first = await stores.keyStore.revoke(k.record.id);
        clock.advance(5_000);
        const again = await stores.keyStore.revoke(k.record.id);
        expect(first?.revoked_at).toBe(iso(START));
        expect(again?.revoked_at).toBe(first?.revoked_at);
        for (const id of ['key_000000000000000000000000', NO_KEY, 'nonsense']) {
          expect(await stores.keyStore.setSubscription(id, 'logs', { plan: 'slow', status: 'active' })).toBeUndefined();
          expect(await stores.keyStore.revoke(id)).toBeUndefined();
          expect(await stores.keyStore.get(id)).toBeUndefined();
        }
      });
    });

    describe('admission', () => {
      it('when the account is unknown, the hash differs or the key is revoked, then nothing is admitted or charged', async () => {
        const k = await keyWith({ token: { plan: 'tiny', status: 'active' } });
        const request = { api: 'token', apiPlans: plans, nowMs: clock.now() };
        expect((await stores.quotaStore.admit({ ...request, accountId: NO_ACCOUNT, keyHash: k.hash })).outcome).toBe('unknown_key');
        expect((await stores.quotaStore.admit({ ...request, accountId: k.accountId, keyHash: hashApiKey('other') })).outcome).toBe('unknown_key');
        await stores.keyStore.revoke(k.record.id);
        const revoked = await admit(k);
        expect(revoked).toMatchObject({ outcome: 'revoked', keyId: k.record.id });
        expect(revoked.ticket).toBeUndefined();
        expect(await usage(k.accountId)).toEqual({ month: 0, day: 0 });
      });

      it('when a call is admitted, then the admission names the key the secret opened', async () => {
        const k = await keyWith({ token: { plan: 'tiny', status: 'active' } });
        expect(await admit(k)).toMatchObject({ outcome: 'admitted', keyId: k.record.id, ticket: { accountId: k.accountId, api: 'token', monthId: '2026-03', dayId: '2026-03-31', charged: 'month' } });
      });

      it('when a call is refused for the rate or for the quota, then the refusal names the key too, so the usage history counts it as a call of that key', async () => {
        const k = await keyWith({ token: { plan: 'slow', status: 'active' } });
        await admit(k);
        await admit(k);
        expect(await admit(k)).toMatchObject({ outcome: 'rate_limited', keyId: k.record.id });
        const tiny = await keyWith({ token: { plan: 'tiny', status: 'active' } }, 'quota@example.com');
        for (let i = 0; i < 4; i++) await admit(tiny);
        expect(await admit(tiny)).toMatchObject({ outcome: 'quota_exceeded', keyId: tiny.record.id });
      });

      it('when the monthly quota is used up, then calls are refused uncharged until the next UTC month', async () => {
        const k = await keyWith({ token: { plan: 'tiny', status: 'active' } });
        const outcomes = [];
        for (let i = 0; i < 6; i++) outcomes.push((await admit(k)).outcome);
        expect(outcomes).toEqual(['admitted', 'admitted', 'admitted', 'admitted', 'quota_exceeded', 'quota_exceeded']);
        expect(await usage(k.accountId)).toEqual({ month: 4, day: 0 });
        clock.advance(2_000); // 2026-04-01T00:00:00Z
        const april = await admit(k);
        expect(april).toMatchObject({ outcome: 'admitted', plan: 'tiny', used: 1 });
        expect(await usage(k.accountId)).toEqual({ month: 1, day: 0 });
      });

      it('when the rate is reached, then the rolling second refuses uncharged and frees a slot as calls leave it', async () => {
        const k = await keyWith({ token: { plan: 'slow', status: 'active' } });
        expect(await admit(k)).toMatchObject({ outcome: 'admitted', secondCount: 1, used: 1 });
        clock.advance(600);
        expect(await admit(k)).toMatchObject({ outcome: 'admitted', secondCount: 2, used: 2 });
        clock.advance(399);
        const limited = await admit(k);
        expect(limited).toMatchObject({ outcome: 'rate_limited', plan: 'slow', secondCount: 2, used: 2 });
        expect(limited.ticket).toBeUndefined();
        clock.advance(1); // the first call is now exactly one second old
        expect(await admit(k)).toMatchObject({ outcome: 'admitted', secondCount: 2, used: 3 });
        expect((await admit(k)).outcome).toBe('rate_limited');
        expect((await usage(k.accountId)).month).toBe(3);
      });

      it('when calls keep coming for seconds, then each counts every call of its own last second, however often the log is trimmed', async () => {
        const k = await keyWith({ token: { plan: 'wide', status: 'active' } });
        clock.set(Date.parse('2026-03-15T12:00:00.000Z')); // one month throughout
        const counts: number[] = [];
        // A call every 100 ms for 3.5 s: 35 calls, past every trim of the log on the way.
        for (let i = 0; i < 35; i++) {
          const admission = await admit(k);
          expect(admission).toMatchObject({ outcome: 'admitted', used: i + 1 });
          counts.push(admission.secondCount);
          clock.advance(100);
        }
        expect(counts).toEqual(Array.from({ length: 35 }, (_, i) => Math.min(i + 1, 10)));
      });

      it('when an admitted call is refunded, then its month charge and its rate slot are given back', async () => {
        const k = await keyWith({ token: { plan: 'slow', status: 'active' } });
        await admit(k);
        const second = await admit(k);
        expect((await admit(k)).outcome).toBe('rate_limited');
        await stores.quotaStore.refund(second.ticket!);
        expect((await usage(k.accountId)).month).toBe(1);
        expect(await admit(k)).toMatchObject({ outcome: 'admitted', used: 2 });
      });

      it('when a call is refunded twice, or cancelled without knowing its charge, then it is given back exactly once', async () => {
        const k = await keyWith({ token: { plan: 'tiny', status: 'active' } });
        const first = await admit(k);
        const second = await admit(k);
        await stores.quotaStore.refund(first.ticket!);
        await stores.quotaStore.refund(first.ticket!);
        expect((await usage(k.accountId)).month).toBe(1);
        const { charged: _charged, ...unknownCharge } = second.ticket!;
        await stores.quotaStore.refund(unknownCharge);
        await stores.quotaStore.refund(second.ticket!);
        expect((await usage(k.accountId)).month).toBe(0);
        const play = await keyWith();
        const played = await admit(play);
        await stores.quotaStore.refund({ ...played.ticket!, charged: undefined });
        expect((await usage(play.accountId)).day).toBe(0);
      });

      it('when a call that was never admitted is cancelled, then nothing changes', async () => {
        const paid = await keyWith({ token: { plan: 'tiny', status: 'active' } });
        const admitted = await admit(paid);
        await stores.quotaStore.refund({ ...admitted.ticket!, member: `${admitted.ticket!.member}9`, charged: undefined });
        expect(await usage(paid.accountId)).toEqual({ month: 1, day: 0 });
        const play = await keyWith();
        const played = await admit(play);
        await stores.quotaStore.refund({ ...played.ticket!, member: `${played.ticket!.member}9`, charged: undefined });
        expect(await usage(play.accountId)).toEqual({ month: 0, day: 1 });
      });

      it('when a refund arrives after the month rolled over, then it is taken off the month that was charged', async () => {
        const k = await keyWith({ token: { plan: 'tiny', status: 'active' } });
        const march = await admit(k);
        clock.advance(2_000);
        await admit(k);
        await stores.quotaStore.refund(march.ticket!);
        expect(await usage(k.accountId)).toEqual({ month: 1, day: 0 });
        expect(await usage(k.accountId, 'token', START)).toEqual({ month: 0, day: 0 });
      });

      it('when a key has no active subscription, then the playground allowance is used per UTC day, then refused', async () => {
        const k = await keyWith({ token: { plan: 'tiny', status: 'inactive' } });
        const outcomes = [];
        for (let i = 0; i < 4; i++) outcomes.push((await admit(k)).outcome);
        expect(outcomes).toEqual(['playground', 'playground', 'playground', 'playground_exhausted']);
        expect(await usage(k.accountId)).toEqual({ month: 0, day: 3 });
        clock.advance(2_000);
        expect(await admit(k)).toMatchObject({ outcome: 'playground', used: 1, subscription: { plan: 'tiny', status: 'inactive' } });
      });

      it('when a playground call is refunded, then the day counter goes back', async () => {
        const k = await keyWith();
        const call = await admit(k);
        expect(call.ticket).toMatchObject({ api: 'token', dayId: '2026-03-31' });
        await stores.quotaStore.refund(call.ticket!);
        expect((await usage(k.accountId)).day).toBe(0);
      });

      it('when the API has no playground or the plan no longer exists, then the call is refused uncharged', async () => {
        const none = await keyWith();
        expect(await admit(none, closed, 'burger')).toMatchObject({ outcome: 'no_subscription', used: 0 });
        const gone = await keyWith({ burger: { plan: 'retired', status: 'active' } });
        expect(await admit(gone, closed, 'burger')).toMatchObject({ outcome: 'unknown_plan', subscription: { plan: 'retired', status: 'active' } });
        expect(await usage(gone.accountId, 'burger')).toEqual({ month: 0, day: 0 });
      });
    });

    describe('accounts', () => {
      it('when accounts are created, then each is read back by id and by email; unknown ones give undefined', async () => {
        const subscriptions = { token: { plan: 'tiny', status: 'active' as const } };
        const ada = await stores.accountStore.createAccount({ email: 'ada@example.com', subscriptions });
        const team = await stores.accountStore.createAccount({ name: 'Team' });
        expect(ada).toEqual({ id: expect.stringMatching(/^acc_[0-9a-f]{24}$/), email: 'ada@example.com', email_verified: true, name: 'ada@example.com', status: 'active', created_at: iso(START), subscriptions });
        expect(team).toMatchObject({ email: null, name: 'Team', subscriptions: {} });
        expect(await stores.accountStore.getAccount(ada.id)).toEqual(ada);
        expect(await stores.accountStore.getAccount(team.id)).toEqual(team);
        expect(await stores.accountStore.findAccountByEmail('ada@example.com')).toEqual(ada);
        expect(await stores.accountStore.findAccountByEmail('bob@example.com')).toBeUndefined();
        expect(await stores.accountStore.getAccount(NO_ACCOUNT)).toBeUndefined();
      });

      it('when an email is already held, then creating another account with it throws EmailTakenError naming the holder, and nothing is made', async () => {
        const ada = await stores.accountStore.createAccount({ email: 'ada@example.com' });
        const error = await stores.accountStore.createAccount({ email: 'ada@example.com', name: 'impostor' }).catch((err: unknown) => err);
        expect(error).toBeInstanceOf(EmailTakenError);
        expect((error as EmailTakenError).accountId).toBe(ada.id);
        expect((await stores.accountStore.listAccounts({ limit: 10 })).items).toEqual([ada]);
        // Accounts without an email never clash.
        await stores.accountStore.createAccount({ name: 'a' });
        await stores.accountStore.createAccount({ name: 'b' });
        expect((await stores.accountStore.listAccounts({ limit: 10 })).items).toHaveLength(3);
      });

      it('when accounts are listed two at a time, then three pages give each once, in creation order, the last with no cursor', async () => {
        const made: Account[] = [];
        for (let i = 0; i < 5; i++) {
          made.push(await stores.accountStore.createAccount({ email: `user${i}@example.com` }));
          clock.advance(i === 1 ? 0 : 1_000); // two accounts in the same millisecond: the id orders them
        }
        const order = [...made].sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id));
        const pages = [];
        let cursor: string | undefined;
        do {
          const page = await stores.accountStore.listAccounts({ cursor, limit: 2 });
          pages.push(page);
          cursor = page.next_cursor ?? undefined;
        } while (cursor && pages.length < 10);
        expect(pages.map((p) => p.items.length)).toEqual([2, 2, 1]);
        expect(pages.map((p) => p.next_cursor === null)).toEqual([false, false, true]);
        expect(pages.flatMap((p) => p.items)).toEqual(order);
        expect(await stores.accountStore.listAccounts({ limit: 5 })).toEqual({ items: order, next_cursor: null });
      });

      it.each<[string, string, number]>([
        ['an email held', 'user2@example.com', 1],
        ['an email nobody holds', 'nobody@example.com', 0],
      ])('when accounts are listed by %s, then only its account is listed', async (_case, email, count) => {
        const made: Account[] = [];
        for (let i = 0; i < 3; i++) made.push(await stores.accountStore.createAccount({ email: `user${i}@example.com` }));
        const page = await stores.accountStore.listAccounts({ limit: 2, email });
        expect(page).toEqual({ items: made.filter((a) => a.email === email), next_cursor: null });
        expect(page.items).toHaveLength(count);
      });

      it('when an account is made unproven and its email proven, then it says so; operators’ and earlier accounts count as proven', async () => {
        const vouched = await stores.accountStore.createAccount({ email: 'ops@example.com' });
        const unproven = await stores.accountStore.createAccount({ email: 'new@example.com', email_verified: false });
        expect([vouched.email_verified, unproven.email_verified]).toEqual([true, false]);
        expect((await stores.accountStore.getAccount(unproven.id))?.email_verified).toBe(false);
        expect((await stores.keyStore.create({ owner: 'self@example.com', email_verified: false })).record.account_id).toEqual(expect.any(String));
        expect((await stores.accountStore.findAccountByEmail('self@example.com'))?.email_verified).toBe(false);
        const proven = await stores.accountStore.setEmailVerified(unproven.id);
        expect(proven).toEqual({ ...unproven, email_verified: true });
        expect(await stores.accountStore.getAccount(unproven.id)).toEqual(proven);
        expect(await stores.accountStore.setEmailVerified(NO_ACCOUNT)).toBeUndefined();
      });

      it('when a subscription is set, changed and cancelled, then the account shows it; an unknown account gives undefined', async () => {
        const { id } = await stores.accountStore.createAccount({ name: 'Team' });
        expect(await stores.accountStore.setSubscription(id, 'token', { plan: 'tiny', status: 'active' })).toMatchObject({ subscriptions: { token: { plan: 'tiny', status: 'active' } } });
        expect(await stores.accountStore.setSubscription(id, 'burger', { plan: 'slow', status: 'inactive' })).toMatchObject({ subscriptions: { token: { plan: 'tiny', status: 'active' }, burger: { plan: 'slow', status: 'inactive' } } });
        expect((await stores.accountStore.setSubscription(id, 'token', null))?.subscriptions).toEqual({ burger: { plan: 'slow', status: 'inactive' } });
        expect(await stores.accountStore.setSubscription(NO_ACCOUNT, 'token', { plan: 'tiny', status: 'active' })).toBeUndefined();
        expect(await stores.accountStore.setStatus(NO_ACCOUNT, 'suspended')).toBeUndefined();
        expect(await stores.accountStore.getAccount(NO_ACCOUNT)).toBeUndefined();
      });
    });

    describe('keys of an account', () => {
      it('when keys are created, then each is read back, listed a page at a time in creation order, and no secret is stored', async () => {
        const { account, keys } = await accountWithKeys(3);
        for (const [i, { key, record }] of keys.entries()) {
          expect(record).toEqual({
            id: expect.stringMatching(new RegExp(`^key_${account.id.slice(4)}[0-9a-f]{8}$`)),
            account_id: account.id,
            name: `key ${i}`,
            created_at: iso(START + i),
            prefix: keyHints(key).prefix,
            last4: key.slice(-4),
            expires_at: null,
            revoked_at: null,
            last_used_at: null,
            rolled_at: null,
            grace_until: null,
            created_by: null,
          });
          expect(parseApiKey(key)).toMatchObject({ ok: true, accountId: account.id, legacy: false });
          expect(await stores.accountStore.getKey(record.id)).toEqual(record);
        }
        const pages = [];
        let cursor: string | undefined;
        do {
          const page = (await stores.accountStore.listKeys(account.id, { cursor, limit: 1 }))!;
          pages.push(page);
          cursor = page.next_cursor ?? undefined;
        } while (cursor && pages.length < 10);
        expect(pages.map((p) => p.items.map((k) => k.id))).toEqual(keys.map((k) => [k.record.id]));
        expect(pages.at(-1)!.next_cursor).toBeNull();
        const listed = JSON.stringify(await stores.accountStore.listKeys(account.id, { limit: 10 }));
        for (const { key } of keys) expect(listed).not.toContain(key);
        expect(await stores.accountStore.createKey(NO_ACCOUNT, { name: 'x' })).toBeUndefined();
        expect(await stores.accountStore.listKeys(NO_ACCOUNT, { limit: 10 })).toBeUndefined();
        expect(await stores.accountStore.getKey(`key_${account.id.slice(4)}00000000`)).toBeUndefined();
      });

      it('when 30 keys are created at once under a cap of 20 live keys, then exactly 20 are made and 10 refused; revoked and expired keys, and a rolled key’s second secret, leave room', async () => {
        const { account, keys } = await accountWithKeys(3);
        await stores.accountStore.rollKey(keys[0]!.record.id, 60_000);
        await stores.accountStore.revokeKey(keys[1]!.record.id);
        await stores.accountStore.createKey(account.id, { name: 'short', expiresAtMs: clock.now() + 1 });
        clock.advance(1);
        // Live now: keys 0 (rolled, two secrets) and 2, so 18 more fit under 20.
        const made = await Promise.allSettled(Array.from({ length: 30 }, (_, i) => stores.accountStore.createKey(account.id, { name: `at once ${i}`, maxLive: 20 })));
        expect(made.filter((r) => r.status === 'fulfilled')).toHaveLength(18);
        const refused = made.flatMap((r) => (r.status === 'rejected' ? [r.reason] : []));
        expect(refused).toHaveLength(12);
        for (const err of refused) expect(err).toBeInstanceOf(KeyLimitError);
        const listed = (await stores.accountStore.listKeys(account.id, { limit: 100 }))!.items;
        expect(listed.filter((k) => k.revoked_at === null && (k.expires_at === null || Date.parse(k.expires_at) > clock.now()))).toHaveLength(20);
        // Without a cap (operators), a key is made past it; a revocation frees a place under it.
        expect(await stores.accountStore.createKey(account.id, { name: 'operator' })).toBeDefined();
        await expect(stores.accountStore.createKey(account.id, { name: 'one more', maxLive: 20 })).rejects.toBeInstanceOf(KeyLimitError);
        await stores.accountStore.revokeKey(keys[2]!.record.id);
        await stores.accountStore.revokeKey(keys[0]!.record.id);
        expect(await stores.accountStore.createKey(account.id, { name: 'one more', maxLive: 20 })).toBeDefined();
        expect(await stores.accountStore.createKey(NO_ACCOUNT, { name: 'x', maxLive: 20 })).toBeUndefined();
      });

      it('when a key is rolled with a grace period, then both secrets work until it ends, then only the new one; the old says rolled', async () => {
        const { keys } = await accountWithKeys(1);
        const old = keys[0]!;
        clock.set(START + 10_000);
        const rolled = (await stores.accountStore.rollKey(old.record.id, 60_000))!;
        expect(rolled.key).not.toBe(old.key);
        expect(rolled.record).toEqual({ ...old.record, prefix: keyHints(rolled.key).prefix, last4: rolled.key.slice(-4), rolled_at: iso(START + 10_000), grace_until: iso(START + 70_000) });
        expect(await stores.accountStore.getKey(old.record.id)).toEqual(rolled.record);
        expect(await admit(old.key)).toMatchObject({ outcome: 'admitted', keyId: old.record.id });
        expect(await admit(rolled.key)).toMatchObject({ outcome: 'admitted', keyId: old.record.id });
        clock.set(START + 69_999);
        expect(await outcome(old.key)).toBe('admitted');
        clock.set(START + 70_000);
        expect(await outcome(old.key)).toBe('rolled');
        expect(await outcome(rolled.key)).toBe('admitted');
        expect((await usage(old.record.account_id)).month).toBe(4);
      });

      it('when a key is rolled without grace, then the old secret is refused at once, as rolled', async () => {
        const { keys } = await accountWithKeys(1);
        const old = keys[0]!;
        const rolled = (await stores.accountStore.rollKey(old.record.id, 0))!;
        expect(rolled.record).toMatchObject({ rolled_at: iso(clock.now()), grace_until: null });
        expect(await admit(old.key)).toMatchObject({ outcome: 'rolled', keyId: old.record.id });
        expect(await stores.accountStore.findKey(old.key)).toMatchObject({ key: { id: old.record.id }, secret: 'previous' });
        expect(await outcome(rolled.key)).toBe('admitted');
        expect((await usage(old.record.account_id)).month).toBe(1);
      });

      it('when a key is rolled again during a grace period, then the oldest secret stops and the middle one gets the new grace', async () => {
        const { keys } = await accountWithKeys(1);
        const first = keys[0]!;
        const second = (await stores.accountStore.rollKey(first.record.id, 60_000))!;
        clock.advance(1_000);
        const third = (await stores.accountStore.rollKey(first.record.id, 5_000))!;
        expect(await outcome(first.key)).toBe('unknown_key');
        expect(await outcome(second.key)).toBe('admitted');
        expect(await outcome(third.key)).toBe('admitted');
        clock.advance(5_000);
        expect(await outcome(second.key)).toBe('rolled');
        expect(await outcome(third.key)).toBe('admitted');
      });

      it('when a roll’s grace is ended, then the previous secret is refused as rolled at once and the current one still works; again, or on a revoked or unknown key, nothing changes', async () => {
        const { keys } = await accountWithKeys(2);
        const old = keys[0]!;
        const rolled = (await stores.accountStore.rollKey(old.record.id, 60_000))!;
        expect(await outcome(old.key)).toBe('admitted');
        clock.advance(1_000);
        const ended = await stores.accountStore.endGrace(old.record.id);
        expect(ended).toEqual({ ...rolled.record, grace_until: null });
        expect(await stores.accountStore.getKey(old.record.id)).toEqual(ended);
        expect(await admit(old.key)).toMatchObject({ outcome: 'rolled', keyId: old.record.id });
        expect(await outcome(rolled.key)).toBe('admitted');
        expect(await stores.accountStore.endGrace(old.record.id)).toEqual(ended);
        // A key never rolled: nothing to end.
        expect(await stores.accountStore.endGrace(keys[1]!.record.id)).toEqual(keys[1]!.record);
        await stores.accountStore.revokeKey(old.record.id);
        expect((await stores.accountStore.endGrace(old.record.id))?.revoked_at).toBe(iso(clock.now()));
        expect(await outcome(rolled.key)).toBe('revoked');
        expect(await stores.accountStore.endGrace(NO_KEY)).toBeUndefined();
        expect(await stores.accountStore.endGrace('nonsense')).toBeUndefined();
      });

      it('when a revoked or unknown key is rolled, then it throws KeyRevokedError or gives undefined', async () => {
        const { keys } = await accountWithKeys(1);
        await stores.accountStore.revokeKey(keys[0]!.record.id);
        const error = await stores.accountStore.rollKey(keys[0]!.record.id, 1_000).catch((err: unknown) => err);
        expect(error).toBeInstanceOf(KeyRevokedError);
        expect((error as KeyRevokedError).keyId).toBe(keys[0]!.record.id);
        expect(await outcome(keys[0]!.key)).toBe('revoked');
        expect(await stores.accountStore.rollKey(NO_KEY, 1_000)).toBeUndefined();
        expect(await stores.accountStore.rollKey('nonsense', 1_000)).toBeUndefined();
      });

      it('when a key expires, then it is admitted until expires_at and refused as expired from then, also after a roll', async () => {
        const { account } = await accountWithKeys(0);
        const made = (await stores.accountStore.createKey(account.id, { name: 'ci', expiresAtMs: START + 1_000 }))!;
        expect(made.record.expires_at).toBe(iso(START + 1_000));
        clock.set(START + 999);
        expect(await outcome(made.key)).toBe('admitted');
        const rolled = (await stores.accountStore.rollKey(made.record.id, 60_000))!;
        expect(rolled.record.expires_at).toBe(iso(START + 1_000));
        clock.set(START + 1_000);
        expect(await admit(made.key)).toMatchObject({ outcome: 'expired', keyId: made.record.id });
        expect(await outcome(rolled.key)).toBe('expired');
        expect((await usage(account.id)).month).toBe(1);
      });

      it('when keys expiring in a window are asked for, then exactly the unrevoked ones whose expiry falls in it come back, with their accounts, also after a roll', async () => {
        const day = 86_400_000;
        const a = await stores.accountStore.createAccount({ name: 'a' });
        const b = await stores.accountStore.createAccount({ name: 'b' });
        const make = async (accountId: string, name: string, expiresAtMs?: number) => (await stores.accountStore.createKey(accountId, { name, ...(expiresAtMs === undefined ? {} : { expiresAtMs }) }))!.record;
        const soon = await make(a.id, 'soon', START + day);
        const edge = await make(b.id, 'edge', START + 7 * day);
        const revoked = await make(a.id, 'revoked', START + 2 * day);
        await make(a.id, 'later', START + 7 * day + 1);
        await make(b.id, 'past', START);
        await make(b.id, 'never');
        await stores.accountStore.revokeKey(revoked.id);
        const rolled = (await stores.accountStore.rollKey(soon.id, 0))!.record;
        const found = async (fromMs: number, toMs: number) =>
          (await stores.accountStore.keysExpiringBetween(fromMs, toMs)).map(({ key, account }) => [key.name, account.id, key]).sort((x, y) => String(x[0]).localeCompare(String(y[0])));
        expect(await found(START, START + 7 * day)).toEqual([
          ['edge', b.id, edge],
          ['soon', a.id, rolled],
        ]);
        expect(await found(START + day, START + 8 * day)).toEqual([
          ['edge', b.id, edge],
          ['later', a.id, expect.objectContaining({ expires_at: iso(START + 7 * day + 1) })],
        ]);
        expect(await found(START - day, START)).toEqual([['past', b.id, expect.objectContaining({ expires_at: iso(START) })]]);
        expect(await found(START + 8 * day, START + 9 * day)).toEqual([]);
      });

      it('when a key is revoked, then every secret of it is refused, the one in a grace period too, and the first revocation time is kept', async () => {
        const { keys } = await accountWithKeys(2);
        const [doomed, other] = [keys[0]!, keys[1]!];
        const rolled = (await stores.accountStore.rollKey(doomed.record.id, 60_000))!;
        const revokedAt = clock.now();
        const revoked = await stores.accountStore.revokeKey(doomed.record.id);
        expect(revoked).toEqual({ ...rolled.record, revoked_at: iso(revokedAt) });
        clock.advance(1_000);
        expect((await stores.accountStore.revokeKey(doomed.record.id))?.revoked_at).toBe(iso(revokedAt));
        expect(await outcome(doomed.key)).toBe('revoked');
        expect(await outcome(rolled.key)).toBe('revoked');
        expect(await outcome(other.key)).toBe('admitted');
        expect(await stores.accountStore.revokeKey(NO_KEY)).toBeUndefined();
        expect((await usage(doomed.record.account_id)).month).toBe(1);
      });

      it('when an account is suspended, then every key of it is refused as suspended, uncharged; reactivated, they are admitted again', async () => {
        const { account, keys } = await accountWithKeys(2);
        expect(await stores.accountStore.setStatus(account.id, 'suspended')).toMatchObject({ id: account.id, status: 'suspended' });
        for (const { key, record } of keys) expect(await admit(key)).toMatchObject({ outcome: 'suspended', keyId: record.id });
        expect(await usage(account.id)).toEqual({ month: 0, day: 0 });
        expect(await stores.accountStore.setStatus(account.id, 'active')).toMatchObject({ status: 'active' });
        for (const { key } of keys) expect(await outcome(key)).toBe('admitted');
        expect(await usage(account.id)).toEqual({ month: 2, day: 0 });
      });

      it('when two keys of one account call, then they share its quota and playground', async () => {
        const { account, keys } = await accountWithKeys(2);
        const outcomes = [];
        for (let i = 0; i < 6; i++) outcomes.push(await outcome(keys[i % 2]!.key));
        expect(outcomes).toEqual(['admitted', 'admitted', 'admitted', 'admitted', 'quota_exceeded', 'quota_exceeded']);
        expect(await usage(account.id)).toEqual({ month: 4, day: 0 });
        const played = [];
        for (let i = 0; i < 4; i++) played.push(await outcome(keys[i % 2]!.key, 'burger'));
        expect(played).toEqual(['playground', 'playground', 'playground', 'playground_exhausted']);
        expect(await usage(account.id, 'burger')).toEqual({ month: 0, day: 3 });
      });

      it('when two accounts call, then neither charges the other, and a secret of one presented as the other is unknown', async () => {
        const a = await accountWithKeys(1);
        const b = await accountWithKeys(1);
        for (let i = 0; i < 4; i++) expect(await outcome(b.keys[0]!.key)).toBe('admitted');
        expect(await usage(a.account.id)).toEqual({ month: 0, day: 0 });
        expect(await outcome(a.keys[0]!.key)).toBe('admitted');
        expect(await usage(a.account.id)).toEqual({ month: 1, day: 0 });
        expect(await usage(b.account.id)).toEqual({ month: 4, day: 0 });
        const crossed = await stores.quotaStore.admit({ accountId: b.account.id, keyHash: hashApiKey(a.keys[0]!.key), api: 'token', apiPlans: plans, nowMs: clock.now() });
        expect(crossed).toEqual(expect.objectContaining({ outcome: 'unknown_key' }));
        expect(crossed.keyId).toBeUndefined();
        expect(await usage(a.account.id)).toEqual({ month: 1, day: 0 });
        expect(await usage(b.account.id)).toEqual({ month: 4, day: 0 });
      });

      it('when a secret is looked up, then its key and account are found, and whether it is the current or previous secret', async () => {
        const { account, keys } = await accountWithKeys(1);
        const old = keys[0]!;
        expect(await stores.accountStore.findKey(old.key)).toEqual({ key: old.record, account, secret: 'current' });
        const rolled = (await stores.accountStore.rollKey(old.record.id, 60_000))!;
        expect(await stores.accountStore.findKey(rolled.key)).toEqual({ key: rolled.record, account, secret: 'current' });
        expect(await stores.accountStore.findKey(old.key)).toEqual({ key: rolled.record, account, secret: 'previous' });
        const revoked = await stores.accountStore.revokeKey(old.record.id);
        expect(await stores.accountStore.findKey(rolled.key)).toEqual({ key: revoked, account, secret: 'current' });
        // A typo, garbage, a well-formed secret nobody holds, and one of the old format nobody holds.
        for (const secret of [`${old.key.slice(0, -1)}${old.key.endsWith('0') ? '1' : '0'}`, 'garbage', generateApiKey(account.id), `tg_${'A'.repeat(43)}`]) {
          expect(await stores.accountStore.findKey(secret)).toBeUndefined();
        }
      });
    });

    describe('history', () => {
      it('when counts are recorded, then the history sums them per day, API and outcome, and lists every day asked for with zeros where none', async () => {
        const { account } = await accountWithKeys(0);
        const other = await accountWithKeys(0);
        await stores.accountStore.record(
          [
            { accountId: account.id, api: 'token', dayId: '2026-03-30', outcome: '2xx', count: 5 },
            { accountId: account.id, api: 'token', dayId: '2026-03-30', outcome: '429', count: 2 },
            { accountId: account.id, api: 'burger', dayId: '2026-03-31', outcome: 'refunded', count: 1 },
            { accountId: other.account.id, api: 'token', dayId: '2026-03-30', outcome: '2xx', count: 100 },
          ],
          new Map(),
        );
        await stores.accountStore.record([{ accountId: account.id, api: 'token', dayId: '2026-03-30', outcome: '2xx', count: 3 }], new Map());
        const zero = { '2xx': 0, '4xx': 0, '429': 0, '5xx': 0, refunded: 0 };
        expect(await stores.accountStore.history(account.id, ['token', 'burger'], '2026-03-29', '2026-04-01')).toEqual([
          { day: '2026-03-29', api: 'token', counts: zero },
          { day: '2026-03-29', api: 'burger', counts: zero },
          { day: '2026-03-30', api: 'token', counts: { ...zero, '2xx': 8, '429': 2 } },
          { day: '2026-03-30', api: 'burger', counts: zero },
          { day: '2026-03-31', api: 'token', counts: zero },
          { day: '2026-03-31', api: 'burger', counts: { ...zero, refunded: 1 } },
          { day: '2026-04-01', api: 'token', counts: zero },
          { day: '2026-04-01', api: 'burger', counts: zero },
        ]);
        expect(await stores.accountStore.history(other.account.id, ['token'], '2026-03-30', '2026-03-30')).toEqual([{ day: '2026-03-30', api: 'token', counts: { ...zero, '2xx': 100 } }]);
        expect(await stores.accountStore.history(NO_ACCOUNT, ['token'], '2026-03-30', '2026-03-31')).toBeUndefined();
      });

      it('when an API no longer in the catalogue has counts, then the history lists it after the APIs asked for, every day of a range that holds its calls, and its details do not make an API', async () => {
        const { account } = await accountWithKeys(0);
        await stores.accountStore.record(
          [
            { accountId: account.id, api: 'token', dayId: '2026-03-30', outcome: '2xx', count: 2 },
            { accountId: account.id, api: 'weather', dayId: '2026-03-31', outcome: '2xx', count: 4 },
            { accountId: account.id, api: 'weather', dayId: '2026-03-31', outcome: '429', count: 1 },
          ],
          new Map(),
          'withdrawn-history',
          [{ accountId: account.id, dayId: '2026-03-31', field: usageFields.endpointCalls('weather', '/v1/forecast/{city}:2xx'), count: 4 }],
        );
        const zero = { '2xx': 0, '4xx': 0, '429': 0, '5xx': 0, refunded: 0 };
        expect(await stores.accountStore.history(account.id, ['token'], '2026-03-30', '2026-03-31')).toEqual([
          { day: '2026-03-30', api: 'token', counts: { ...zero, '2xx': 2 } },
          { day: '2026-03-30', api: 'weather', counts: zero },
          { day: '2026-03-31', api: 'token', counts: zero },
          { day: '2026-03-31', api: 'weather', counts: { ...zero, '2xx': 4, '429': 1 } },
        ]);
        // A range without its calls does not name it.
        expect((await stores.accountStore.history(account.id, ['token'], '2026-03-28', '2026-03-29'))?.map((d) => d.api)).toEqual(['token', 'token']);
      });

      it("when a key's last use is recorded, then last_used_at shows it; an unknown key is not made", async () => {
        const { keys } = await accountWithKeys(2);
        const ghost = `${keys[0]!.record.id.slice(0, -8)}00000000`;
        await stores.accountStore.record([], new Map([[keys[0]!.record.id, START + 5_000], [ghost, START], [NO_KEY, START]]));
        expect(await stores.accountStore.getKey(keys[0]!.record.id)).toEqual({ ...keys[0]!.record, last_used_at: iso(START + 5_000) });
        expect((await stores.accountStore.getKey(keys[1]!.record.id))?.last_used_at).toBeNull();
        expect(await stores.accountStore.getKey(ghost)).toBeUndefined();
        expect(await stores.accountStore.getKey(NO_KEY)).toBeUndefined();
        expect((await stores.accountStore.listKeys(keys[0]!.record.account_id, { limit: 10 }))?.items).toHaveLength(2);
      });

      it('when one batch holds more accounts than one store call takes and is sent twice under its id, then each account is counted once and every last use shows', async () => {
        const made = [];
        for (let i = 0; i < 60; i++) made.push(await accountWithKeys(1));
        const counts = made.flatMap(({ account }, i) => [
          { accountId: account.id, api: 'token', dayId: '2026-03-30', outcome: '2xx' as const, count: i + 1 },
          { accountId: account.id, api: 'token', dayId: '2026-03-31', outcome: '429' as const, count: 1 },
        ]);
        const used = new Map(made.map(({ keys }, i) => [keys[0]!.record.id, START + i * 1_000]));
        await stores.accountStore.record(counts, used, 'batch-60');
        await stores.accountStore.record(counts, used, 'batch-60');
        for (const [i, { account, keys }] of made.entries()) {
          const days = await stores.accountStore.history(account.id, ['token'], '2026-03-30', '2026-03-31');
          expect(days?.map((d) => [d.counts['2xx'], d.counts['429']])).toEqual([[i + 1, 0], [0, 1]]);
          expect((await stores.accountStore.getKey(keys[0]!.record.id))?.last_used_at).toBe(iso(START + i * 1_000));
        }
      });
    });

    describeBillingContract({ stores: () => stores, now: () => clock.now(), advance: (ms) => clock.advance(ms) });
    describeEventContract({ stores: () => stores, now: () => clock.now(), advance: (ms) => clock.advance(ms) });
    describeTeamContract({ stores: () => stores, now: () => clock.now(), advance: (ms) => clock.advance(ms) });

    describe('sign-ups and health', () => {
      it('when sign-ups are counted, then each address counts separately per UTC hour', async () => {
        expect(await stores.quotaStore.countSignup('10.0.0.1', clock.now())).toBe(1);
        expect(await stores.quotaStore.countSignup('10.0.0.1', clock.now())).toBe(2);
        expect(await stores.quotaStore.countSignup('::1', clock.now())).toBe(1);
        clock.advance(2_000);
        expect(await stores.quotaStore.countSignup('10.0.0.1', clock.now())).toBe(1);
      });

      it('when the store is up, then ping resolves', async () => {
        await expect(stores.quotaStore.ping()).resolves.toBeUndefined();
      });
    });

    describeOperatorContract(() => ({ stores, clock }));
    describeAccountSettingsContract(() => ({ stores, clock }));
    describeUsageBreakdownContract(() => ({ stores, clock }));
  });
}
