import Redis from 'ioredis';
import type { QuotaStore } from '../../src/data/quota-store';
import { createRedisStores } from '../../src/data/redis/redis-stores';
import { parseApiKey } from '../../src/domain/api-key';
import { BUILT_IN_PLANS } from '../../src/domain/plans';
import { dayWindow } from '../../src/domain/windows';
import { runGatewayScript } from '../support/gateway-process';
import { freePort } from '@tollgate/envelope/test/processes';
import { startRedisServer } from '../support/redis-server';
import type { RedisServer } from '../support/redis-server';

let server: RedisServer;
beforeAll(async () => {
  server = await startRedisServer();
});
afterAll(() => server.stop());

jest.setTimeout(90_000);

const cli = (...args: string[]) => runGatewayScript('src/cli.ts', args, { REDIS_URL: server.url });
/** Runs a command that must succeed and returns what it printed with --json, parsed. */
async function ok<T = Record<string, unknown>>(...args: string[]): Promise<T> {
  const result = await cli(...args, '--json');
  expect({ args, code: result.code, stderr: result.stderr }).toEqual({ args, code: 0, stderr: '' });
  return JSON.parse(result.stdout) as T;
}

/** One call to the token API with a secret, admitted (or not) through the store the CLI writes to. */
function admit(quotaStore: QuotaStore, secret: string) {
  const parsed = parseApiKey(secret);
  if (!parsed.ok) throw new Error(`not a key: ${secret}`);
  return quotaStore.admit({ accountId: parsed.accountId, keyHash: parsed.hash, legacy: parsed.legacy, api: 'token', apiPlans: BUILT_IN_PLANS.token!, nowMs: Date.now() });
}

describe('operator CLI', () => {
  it('when a key is created, listed, subscribed, used, read and revoked, then the store and the gateway agree', async () => {
    const created = await cli('create', '--owner', 'ops@example.com', '--subscribe', 'burger=starter', '--json');
    expect(created.code).toBe(0);
    const key = JSON.parse(created.stdout) as { id: string; key: string; subscriptions: object };
    expect(key.subscriptions).toEqual({ burger: { plan: 'starter', status: 'active' } });

    const listed = JSON.parse((await cli('list', '--json')).stdout) as { id: string }[];
    expect(listed.map((k) => k.id)).toContain(key.id);

    const subscribed = await cli('subscribe', key.id, 'token', 'pro', '--json');
    expect(JSON.parse(subscribed.stdout).subscriptions.token).toEqual({ plan: 'pro', status: 'active' });

    // A call admitted through the same store shows up in the CLI's usage.
    const redis = new Redis(server.url);
    try {
      const { quotaStore } = createRedisStores(redis, { clock: Date.now });
      expect((await admit(quotaStore, key.key)).outcome).toBe('admitted');
      const usage = JSON.parse((await cli('usage', key.id, '--json')).stdout) as { apis: { api: string; used: number; limit: number }[] };
      expect(usage.apis.find((a) => a.api === 'token')).toMatchObject({ used: 1, limit: 650_000 });

      const revoked = JSON.parse((await cli('revoke', key.id, '--json')).stdout) as { revoked_at: string | null };
      expect(revoked.revoked_at).not.toBeNull();
      expect((await admit(quotaStore, key.key)).outcome).toBe('revoked');
    } finally {
      await redis.quit();
    }
  });

  it('when an account is created, subscribed, suspended, reactivated and cancelled, then the gateway admits its keys accordingly', async () => {
    const redis = new Redis(server.url);
    try {
      const { quotaStore, accountStore } = createRedisStores(redis, { clock: Date.now });
      const account = await ok<{ id: string; email: string; subscriptions: object }>('account', 'create', '--email', 'Team@Example.com', '--name', 'Team', '--subscribe', 'burger=starter');
      expect(account).toMatchObject({ email: 'team@example.com', name: 'Team', status: 'active', subscriptions: { burger: { plan: 'starter', status: 'active' } } });
      expect(await ok('account', 'get', account.id)).toEqual(account);
      expect(await ok('account', 'list', '--email', 'TEAM@example.com')).toEqual({ items: [account], next_cursor: null });
      const taken = await cli('account', 'create', '--email', 'team@example.com');
      expect([taken.code, taken.stderr]).toEqual([1, `gateway cli: the email team@example.com is already held by the account ${account.id}\n`]);

      const key = await ok<{ id: string; key: string; account_id: string }>('key', 'create', account.id, '--name', 'ci', '--expires', new Date(Date.now() + 86_400_000).toISOString());
      expect(key.account_id).toBe(account.id);
      expect((await admit(quotaStore, key.key)).outcome).toBe('playground');
      expect((await ok('account', 'subscribe', account.id, 'token', 'pro')).subscriptions).toMatchObject({ token: { plan: 'pro', status: 'active' } });
      expect((await admit(quotaStore, key.key)).outcome).toBe('admitted');
      expect((await ok('account', 'suspend', account.id)).status).toBe('suspended');
      expect((await admit(quotaStore, key.key)).outcome).toBe('suspended');
      expect((await ok('account', 'reactivate', account.id)).status).toBe('active');
      expect((await admit(quotaStore, key.key)).outcome).toBe('admitted');
      const usage = await ok<{ account_id: string; apis: { api: string; used: number }[] }>('account', 'usage', account.id);
      expect(usage.apis.find((a) => a.api === 'token')).toMatchObject({ plan: 'pro', used: 2 });
      expect((await ok('account', 'subscribe', account.id, 'token', 'pro', '--inactive')).subscriptions).toMatchObject({ token: { status: 'inactive' } });
      expect((await ok('account', 'cancel', account.id, 'token')).subscriptions).toEqual({ burger: { plan: 'starter', status: 'active' } });

      // The history the gateways flush, read back by day.
      const today = dayWindow(Date.now()).id;
      await accountStore.record([{ accountId: account.id, api: 'token', dayId: today, outcome: '2xx', count: 3 }], new Map());
      const history = await ok<{ from: string; to: string; days: { day: string; api: string; counts: Record<string, number> }[] }>('account', 'history', account.id, '--from', today);
      expect(history).toMatchObject({ from: today, to: today });
      expect(history.days.find((d) => d.api === 'token')).toEqual({ day: today, api: 'token', counts: { '2xx': 3, '4xx': 0, '429': 0, '5xx': 0, refunded: 0 } });
      expect((await ok<{ days: unknown[] }>('account', 'history', account.id)).days).toHaveLength(30 * Object.keys(BUILT_IN_PLANS).length);
    } finally {
      await redis.quit();
    }
  });

  it('when keys are listed, rolled and revoked, then the old secret stops as told and a revoked key cannot be rolled', async () => {
    const redis = new Redis(server.url);
    try {
      const { quotaStore } = createRedisStores(redis, { clock: Date.now });
      const account = await ok<{ id: string }>('account', 'create', '--subscribe', 'token=free');
      const first = await ok<{ id: string; key: string }>('key', 'create', account.id, '--name', 'one');
      const second = await ok<{ id: string; key: string }>('key', 'create', account.id, '--name', 'two');
      const page = await ok<{ items: { id: string }[]; next_cursor: string }>('key', 'list', account.id, '--limit', '1');
      expect(page.items).toHaveLength(1);
      const rest = await ok<{ items: { id: string }[]; next_cursor: null }>('key', 'list', account.id, '--cursor', page.next_cursor);
      expect([...page.items, ...rest.items].map((k) => k.id).sort()).toEqual([first.id, second.id].sort());
      expect(JSON.stringify([page, rest])).not.toContain(first.key);

      const graced = await ok<{ key: string; grace_until: string }>('key', 'roll', first.id);
      expect(Date.parse(graced.grace_until) - Date.now()).toBeGreaterThan(86_000_000);
      expect((await admit(quotaStore, first.key)).outcome).toBe('admitted');
      const rolled = await ok<{ key: string; grace_until: null }>('key', 'roll', first.id, '--grace-seconds', '0');
      expect(rolled.grace_until).toBeNull();
      expect((await admit(quotaStore, graced.key)).outcome).toBe('rolled');
      expect((await admit(quotaStore, first.key)).outcome).toBe('unknown_key');
      expect((await admit(quotaStore, rolled.key)).outcome).toBe('admitted');

      expect((await ok('key', 'revoke', second.id)).revoked_at).not.toBeNull();
      expect((await admit(quotaStore, second.key)).outcome).toBe('revoked');
      const roll = await cli('key', 'roll', second.id);
      expect([roll.code, roll.stderr]).toEqual([1, `gateway cli: the key ${second.id} is revoked and cannot be rolled; create a new key\n`]);
    } finally {
      await redis.quit();
    }
  });


  it('when an account is found by its email, by its id or by a key\'s full secret, then its keys are listed, and the secret is printed nowhere', async () => {
    const account = await ok<{ id: string }>('account', 'create', '--email', 'finder@example.com');
    const first = await ok<{ id: string; key: string }>('key', 'create', account.id, '--name', 'one');
    const second = await ok<{ id: string; key: string }>('key', 'create', account.id, '--name', 'two');
    type Found = { items: { account: { id: string }; keys: { id: string }[] }[] };
    for (const q of ['Finder@Example.com', account.id]) {
      const found = await ok<Found>('account', 'find', q);
      expect(found.items.map((m) => [m.account.id, m.keys.map((k) => k.id).sort()])).toEqual([[account.id, [first.id, second.id].sort()]]);
    }
    const bySecret = await cli('account', 'find', second.key, '--json');
    expect([bySecret.code, bySecret.stderr]).toEqual([0, '']);
    expect((JSON.parse(bySecret.stdout) as Found).items.map((m) => [m.account.id, m.keys.map((k) => k.id)])).toEqual([[account.id, [second.id]]]);
    expect(bySecret.stdout).not.toContain(second.key);
    // A secret with one character changed fails its checksum: said so, not looked for.
    const typo = await cli('account', 'find', `${second.key.slice(0, -8)}${second.key.at(-8) === 'a' ? 'b' : 'a'}${second.key.slice(-7)}`);
    expect([typo.code, typo.stderr.split('\n')[0]]).toEqual([2, "gateway cli: q has the shape of a key's secret but its checksum does not match: mistyped or cut short"]);
  });

  it('when a command is run without --json, then it prints a table a person reads, with the same facts', async () => {
    const account = await ok<{ id: string }>('account', 'create', '--email', 'tables@example.com', '--subscribe', 'token=pro');
    const key = await ok<{ id: string; prefix: string; last4: string }>('key', 'create', account.id, '--name', 'laptop');
    const shown = await cli('key', 'list', account.id);
    expect([shown.code, shown.stderr]).toEqual([0, '']);
    const [header, row, ...rest] = shown.stdout.trimEnd().split('\n');
    const columns = header!.split(/\s{2,}/);
    const cells = Object.fromEntries(row!.split(/\s{2,}/).map((value, i) => [columns[i], value]));
    expect(cells).toMatchObject({ ID: key.id, NAME: 'laptop', KEY: `${key.prefix}…${key.last4}`, REVOKED_AT: '–' });
    expect(rest).toEqual([]);
    const got = await cli('account', 'get', account.id);
    expect(got.stdout).not.toMatch(/[{}"]/);
    expect(got.stdout).toMatch(/^email\s+tables@example\.com$/m);
    expect(got.stdout).toMatch(/^SUBSCRIPTIONS {2}.*\n^token {2}.*$/m);
    expect(got.stdout.split('\n').find((line) => line.startsWith('token  '))!.split(/\s+/).sort()).toEqual(['active', 'pro', 'token']);
  });

  it('when --help is asked of the program, a group or a command, then its usage is printed and the exit code is 0', async () => {
    for (const args of [['--help'], ['-h'], ['account', '--help'], ['account', 'find', '--help'], ['key', 'roll', '-h'], ['create', '--help']]) {
      const result = await cli(...args);
      expect({ args, code: result.code, stderr: result.stderr }).toEqual({ args, code: 0, stderr: '' });
      expect(result.stdout).toMatch(/^usage: tollgate /);
    }
    expect((await cli('account', 'find', '--help')).stdout).toContain('account find <email | acc_… | key_… | key as shown | full secret>');
  });

  it.each([
    [['subscribe', 'key_000000000000000000000000', 'token', 'gold'], 2, 'plan must be one of free, starter, pro, scale for token'],
    [['launch'], 2, "unknown command 'launch'"],
    [['account', 'launch'], 2, "unknown command 'account launch'"],
    [['revoke', 'key_000000000000000000000000'], 1, 'no API key with id key_000000000000000000000000'],
    [['account', 'get', 'acc_000000000000000000000000'], 1, 'no account with id acc_000000000000000000000000'],
    [['account', 'get', 'nope'], 1, 'no account with id nope'],
    [['account', 'get'], 2, 'account get takes <id>'],
    [['account', 'get', 'acc_000000000000000000000000', '--owner', 'x'], 2, 'account get does not take --owner'],
    [['account', 'create', '--email', 'not-an-address'], 2, 'email must be an email address'],
    [['account', 'create', '--subscribe', 'weather=free'], 2, "unknown API 'weather'; APIs: burger, token, logs"],
    [['account', 'subscribe', 'acc_000000000000000000000000', 'weather', 'free'], 2, "unknown API 'weather'; APIs: burger, token, logs"],
    [['account', 'list', '--limit', '0'], 2, 'limit must be an integer from 1 to 100'],
    [['account', 'history', 'acc_000000000000000000000000', '--from', '2020-01-01'], 2, /^from must be within the 90 days of history kept/],
    [['key', 'create', 'acc_000000000000000000000000'], 2, 'key create needs --name <name>'],
    [['key', 'create', 'acc_000000000000000000000000', '--name', 'x', '--expires', '2020-01-01T00:00:00Z'], 2, /^expires_at must be in the future/],
    [['key', 'roll', 'key_000000000000000000000000', '--grace-seconds', '604801'], 2, 'grace_seconds must be an integer from 0 to 604800'],
    [['key', 'roll', 'key_000000000000000000000000'], 1, 'no API key with id key_000000000000000000000000'],
    [['account', 'find', 'not a thing'], 2, /^q must be an email address/],
    [['--verbose'], 2, "unknown option '--verbose'"],
  ] as [string[], number, string | RegExp][])('when the command is %j, then exit %d with one line saying why', async (args, code, message) => {
    const result = await cli(...args);
    expect(result.code).toBe(code);
    // The reason, and for a mistake in the command line where its usage is: never the whole usage text.
    const [line = '', ...more] = result.stderr.trimEnd().split('\n');
    expect(more).toEqual(code === 2 ? [expect.stringMatching(/^usage: tollgate .*--help/)] : []);
    if (typeof message === 'string') expect(line).toBe(`gateway cli: ${message}`);
    else expect(line.replace('gateway cli: ', '')).toMatch(message);
  });
});

describe('gateway cli without its store or gateway', () => {
  it('when Redis cannot be reached, then exit 1 with one line naming it, its password hidden', async () => {
    const port = await freePort();
    const result = await runGatewayScript('src/cli.ts', ['account', 'list'], { REDIS_URL: `redis://operator:s3cret-password@127.0.0.1:${port}/0` });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`gateway cli: Redis at redis://operator:***@127.0.0.1:${port}/0 is not reachable: start it, set REDIS_URL to the gateway's, or TOLLGATE_URL to go through a running gateway\n`);
  });

  it.each([
    [{ STORE_PATH: ':memory:' }, "gateway cli: STORE_PATH=:memory: keeps nothing outside one gateway process: set TOLLGATE_URL=http://127.0.0.1:8080 to act through the running gateway's admin API\n"],
    [{ STORE_PATH: '/nonexistent/tollgate.db' }, "gateway cli: there is no store at /nonexistent/tollgate.db (STORE_PATH): start the gateway once to make it, set STORE_PATH to the gateway's file, or set TOLLGATE_URL=http://127.0.0.1:8080 to act through the running gateway's admin API\n"],
    [{ TOLLGATE_URL: 'http://127.0.0.1:9', STORE_PATH: ':memory:' }, "gateway cli: no admin token to send to TOLLGATE_URL: set ADMIN_TOKEN, or ADMIN_TOKEN_FILE to the gateway's admin-token file\n"],
    [{ TOLLGATE_URL: 'not a url' }, /^gateway cli: TOLLGATE_URL must be /],
  ] as [Record<string, string>, string | RegExp][])('when the CLI has nothing to act on (%j), then exit 1 with one line naming the fix', async (env, message) => {
    const result = await runGatewayScript('src/cli.ts', ['account', 'list'], env);
    expect([result.code, result.stdout]).toEqual([1, '']);
    if (typeof message === 'string') expect(result.stderr).toBe(message);
    else expect(result.stderr).toMatch(message);
  });

  it('when TOLLGATE_URL names no running gateway, then exit 1 with one line saying so', async () => {
    const port = await freePort();
    const result = await runGatewayScript('src/cli.ts', ['account', 'list'], { TOLLGATE_URL: `http://127.0.0.1:${port}`, ADMIN_TOKEN: 'an-admin-token-of-the-operator' });
    expect([result.code, result.stderr]).toEqual([1, `gateway cli: the gateway at http://127.0.0.1:${port} did not answer (ECONNREFUSED): is it running there? TOLLGATE_URL names it\n`]);
  });
});

describe('gateway start-up', () => {
  it('when PLANS_FILE is invalid, then the process exits 1 with one line naming the problem', async () => {
    const result = await runGatewayScript('src/main.ts', [], { PLANS_FILE: '/nonexistent/plans.json', PORT: '0' });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^gateway: PLANS_FILE \/nonexistent\/plans\.json cannot be read: ENOENT[^\n]*\n$/);
  });
});
